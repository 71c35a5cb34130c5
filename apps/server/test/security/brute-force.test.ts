import { AsyncLocalStorage } from 'node:async_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tx } from '../../src/db/database.js';
import { passwordWork } from '../../src/password-hashing.js';
import { NO_LOGIN_LIMITS, startPortal, startPortalWith, type TestPortal } from '../support/portal.js';
import type { HttpResponse } from '../support/http.js';
import { login } from '../support/sign-in.js';
import { expectRoutes } from './support/routes.js';
import { buildWorld, uniqueEmail, USER_PASSWORD, type World } from './support/world.js';

/**
 * Brute force and enumeration.
 *
 * Thresholds (config.ts, documented in docs/security.md): LOGIN_RATE_LIMIT_PER_ACCOUNT (default
 * 10) and LOGIN_RATE_LIMIT_PER_IP (default 100) failed password checks per
 * LOGIN_RATE_LIMIT_WINDOW_SECONDS (default 900) from browsers without a device cookie; the same
 * limits count forgot-password and reset-password requests; in the shared counter store
 * (PostgreSQL or Redis). Over the limit: 429 with Retry-After.
 * The tests use small limits to stay fast; the mechanism is the same.
 */

const WRONG = 'Wrong-Passw0rd!';

describe('login throttling per account', () => {
  let portal: TestPortal;
  let world: World;
  const limits = { LOGIN_RATE_LIMIT_PER_ACCOUNT: '3', LOGIN_RATE_LIMIT_PER_IP: '1000', LOGIN_RATE_LIMIT_WINDOW_SECONDS: '600' };
  beforeAll(async () => ({ portal, built: world } = await startPortalWith(buildWorld, limits)));
  afterAll(() => portal?.close());

  it('answers 429 with Retry-After after the limit, even for the right password, for that account only', async () => {
    expectRoutes(portal.app, 'POST /api/identity/login');
    const email = world.users.member.email;
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await login(portal.client(), { email, password: WRONG })).status);
    expect(statuses).toEqual([400, 400, 400]);
    const blocked = await login(portal.client(), { email, password: USER_PASSWORD });
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const retryAfter = Number(blocked.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(600);
    expect(blocked.headers.getSetCookie().some((c) => c.startsWith('pp_session='))).toBe(false);
    // another account from the same address is not blocked
    const other = await login(portal.client(), { email: world.users.userManager.email, password: USER_PASSWORD });
    expect(other.status).toBe(200);
  });

  it('counts the same account whatever the letter case or surrounding spaces', async () => {
    expectRoutes(portal.app, 'POST /api/identity/login');
    const email = world.users.organizationManager.email;
    const variants = [email, email.toUpperCase(), ` ${email} `];
    for (const v of variants) expect((await login(portal.client(), { email: v, password: WRONG })).status).toBe(400);
    expect(
      (
        await login(portal.client(), {
          email: email.replace(/^./, (c) => c.toUpperCase()),
          password: USER_PASSWORD,
        })
      ).status,
    ).toBe(429);
  });

  it('throttles unknown addresses the same way (no enumeration through the limit)', async () => {
    expectRoutes(portal.app, 'POST /api/identity/login');
    const email = uniqueEmail('unknown');
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await login(portal.client(), { email, password: WRONG })).status);
    expect(statuses).toEqual([400, 400, 400, 429]);
  });

  it('throttles forgot password per account, and never the e-mail step (it checks no password)', async () => {
    expectRoutes(portal.app, 'POST /api/identity/email-login', 'POST /api/identity/forgot-password');
    const email = world.users.siblingManager.email;
    const emailLogin: number[] = [];
    const forgot: number[] = [];
    for (let i = 0; i < 4; i++) {
      emailLogin.push((await portal.client().post('/api/identity/email-login', { email })).status);
      forgot.push((await portal.client().post('/api/identity/forgot-password', { email_address: email })).status);
    }
    expect(emailLogin).toEqual([200, 200, 200, 200]);
    expect(forgot).toEqual([204, 204, 204, 429]);
  });
});

describe('login throttling per IP address', () => {
  let portal: TestPortal;
  const limits = { LOGIN_RATE_LIMIT_PER_ACCOUNT: '1000', LOGIN_RATE_LIMIT_PER_IP: '5', LOGIN_RATE_LIMIT_WINDOW_SECONDS: '600' };
  beforeAll(async () => (portal = await startPortal(limits)));
  afterAll(() => portal?.close());

  it('answers 429 after the limit across many accounts, and X-Forwarded-For does not reset it (TRUST_PROXY off)', async () => {
    expectRoutes(portal.app, 'POST /api/identity/login');
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await login(portal.client(), { email: uniqueEmail('spray'), password: WRONG })).status);
    expect(statuses).toEqual([400, 400, 400, 400, 400]);
    const spoofed = await login(
      portal.client(),
      { email: uniqueEmail('spray'), password: WRONG },
      { headers: { 'x-forwarded-for': '203.0.113.7', 'x-real-ip': '203.0.113.7' } },
    );
    expect(spoofed.status).toBe(429);
    expect(Number(spoofed.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('no account enumeration by status or body', () => {
  let portal: TestPortal;
  let world: World;
  beforeAll(async () => ({ portal, built: world } = await startPortalWith(buildWorld, NO_LOGIN_LIMITS)));
  afterAll(() => portal?.close());

  const shape = (res: HttpResponse) => ({
    status: res.status,
    body: res.text,
    type: res.headers.get('content-type'),
    cookie: res.headers.getSetCookie().length,
  });

  it('POST /api/identity/login: the same answer for a known address (wrong password), an unknown one and an external account', async () => {
    expectRoutes(portal.app, 'POST /api/identity/login');
    const known = shape(await login(portal.client(), { email: world.users.member.email, password: WRONG }));
    const unknown = shape(await login(portal.client(), { email: uniqueEmail('unknown'), password: WRONG }));
    const external = shape(await login(portal.client(), { email: world.users.external.email, password: WRONG }));
    expect(known.status).toBe(400);
    expect(unknown).toEqual(known);
    expect(external).toEqual(known);
  });

  it('POST /api/identity/email-login: the same answer for a known and an unknown address', async () => {
    expectRoutes(portal.app, 'POST /api/identity/email-login');
    const known = shape(await portal.client().post('/api/identity/email-login', { email: world.users.member.email }));
    const unknown = shape(await portal.client().post('/api/identity/email-login', { email: uniqueEmail('unknown') }));
    expect(known.status).toBe(200);
    expect(unknown).toEqual(known);
  });

  it('POST /api/identity/forgot-password: 204 and nothing else for known, unknown and external addresses', async () => {
    expectRoutes(portal.app, 'POST /api/identity/forgot-password');
    const known = shape(await portal.client().post('/api/identity/forgot-password', { email_address: world.users.member.email }));
    const unknown = shape(await portal.client().post('/api/identity/forgot-password', { email_address: uniqueEmail('unknown') }));
    const external = shape(await portal.client().post('/api/identity/forgot-password', { email_address: world.users.external.email }));
    expect(known.status).toBe(204);
    expect(unknown).toEqual(known);
    expect(external).toEqual(known);
    await portal.smtp.waitFor(world.users.member.email);
  });
});

/**
 * Timing, as the work done before the answer: an answer for a known address must not come after
 * more (or less) work than one for an unknown address — one more database round trip or one
 * argon2 verification is what an attacker measures from outside. Each request's statements (those
 * issued in its own asynchronous context: the outbox's lanes working meanwhile are not counted)
 * and the password hashes and verifications started while it ran are compared, for several
 * different addresses of each kind, as an attacker probing a list would send them. The milliseconds
 * themselves depend on the machine's load; the work does not.
 */
describe('no account enumeration by timing: the same work for a known and an unknown address', () => {
  let portal: TestPortal;
  let world: World;
  let work: ReturnType<typeof countWork>;
  beforeAll(async () => {
    ({ portal, built: world } = await startPortalWith(buildWorld, NO_LOGIN_LIMITS));
    work = countWork(portal);
  });
  afterAll(() => portal?.close());

  const SAMPLES = 4;

  /** The work of each request sent for `samples` different known and unknown addresses, after one warm-up of each. */
  async function compare(
    send: (email: string) => Promise<HttpResponse>,
    settled: (email: string, known: boolean) => Promise<void> = async () => {},
  ) {
    const knownEmails: string[] = [];
    for (let i = 0; i < SAMPLES + 1; i++) knownEmails.push((await world.fresh.member()).email);
    const one = async (known: boolean) => {
      const email = known ? knownEmails.pop()! : uniqueEmail('unknown');
      const done = await work.of(() => send(email));
      await settled(email, known);
      return done;
    };
    await one(true);
    await one(false);
    const known: Work[] = [];
    const unknown: Work[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      known.push(await one(true));
      unknown.push(await one(false));
    }
    return { known, unknown };
  }

  it('POST /api/identity/login: the same statements and one password verification, known (wrong password) or unknown', async () => {
    expectRoutes(portal.app, 'POST /api/identity/login');
    const { known, unknown } = await compare((email) => login(portal.client(), { email, password: WRONG }));
    expect(known[0]).toMatchObject({ status: 400, verifications: 1, hashes: 0 });
    for (const w of [...known, ...unknown]) expect(w).toEqual(known[0]);
  });

  it('POST /api/identity/email-login: the same statements, no password work, known or unknown', async () => {
    expectRoutes(portal.app, 'POST /api/identity/email-login');
    const { known, unknown } = await compare((email) => portal.client().post('/api/identity/email-login', { email }));
    expect(known[0]).toMatchObject({ status: 200, verifications: 0, hashes: 0 });
    for (const w of [...known, ...unknown]) expect(w).toEqual(known[0]);
  });

  it('POST /api/identity/forgot-password: the same statements before the answer, known or unknown; the e-mail only for the known one', async () => {
    expectRoutes(portal.app, 'POST /api/identity/forgot-password');
    const sent: string[] = [];
    const { known, unknown } = await compare(
      (email) => portal.client().post('/api/identity/forgot-password', { email_address: email }),
      async (email, isKnown) => {
        if (isKnown) {
          await portal.smtp.waitFor(email);
          sent.push(email);
        }
        await portal.mailSettled();
      },
    );
    expect(known[0]).toMatchObject({ status: 204, verifications: 0, hashes: 0 });
    expect(known[0]!.statements.some((sql) => sql.includes('INSERT INTO outbox'))).toBe(true);
    for (const w of [...known, ...unknown]) expect(w).toEqual(known[0]);
    expect(sent).toHaveLength(SAMPLES + 1);
  });
});

/** The work of one request: its answer's status, its statements' texts, and the password hashes and verifications started meanwhile. */
interface Work {
  status: number;
  statements: string[];
  hashes: number;
  verifications: number;
}

/**
 * Counts each request's statements: an AsyncLocalStorage entered when the portal's HTTP server
 * takes a request (before Fastify's own listener), and the portal's database (the object every
 * module holds) noting each statement issued in a request's context, in transactions too.
 */
function countWork(portal: TestPortal) {
  const requests = new AsyncLocalStorage<string[]>();
  let last: string[] = [];
  portal.app.server.prependListener('request', () => {
    last = [];
    requests.enterWith(last);
  });
  const note = (text: string) => requests.getStore()?.push(text.replace(/\s+/g, ' ').trim());
  const db = portal.services.db;
  const query = db.query.bind(db);
  const transaction = db.transaction.bind(db);
  db.query = (text: string, params?: readonly unknown[]) => {
    note(text);
    return query(text, params);
  };
  db.transaction = ((work: (tx: Tx) => Promise<unknown>) =>
    transaction((tx) => {
      note('BEGIN');
      const counted = Object.create(tx) as Tx;
      counted.query = (text: string, params?: readonly unknown[]) => {
        note(text);
        return tx.query(text, params);
      };
      return work(counted);
    })) as typeof db.transaction;
  return {
    async of(send: () => Promise<HttpResponse>): Promise<Work> {
      const before = { ...passwordWork };
      const res = await send();
      return {
        status: res.status,
        statements: [...last],
        hashes: passwordWork.hashes - before.hashes,
        verifications: passwordWork.verifications - before.verifications,
      };
    },
  };
}
