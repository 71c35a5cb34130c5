import { afterAll, describe, expect, it } from 'vitest';
import { createFreshDatabase, testDatabaseUrl } from '../test/support/database.js';
import { freePort } from '../test/support/portal.js';
import { until as waitUntil } from '../test/support/wait.js';
import { SmtpSink } from '../test/support/smtp.js';
import { ADMIN_EMAIL, api, login, spawnServer, sql, waitForHealth } from './support/server.js';

/**
 * E-mails across a crash and a mail server that is down (README.md, "E-mail";
 * docs/decisions/024-mail-outbox.md), on the built portal (production):
 * - it invites a few addresses while its mail server refuses them (451), then, while it sends them
 *   again and the mail server holds the answers, it is killed with SIGKILL; after a restart each
 *   arrives, once, with a link that works (the row locks of the e-mails in flight died with the
 *   killed process's connections);
 * - it is killed right after a change commits, its first attempt to send the e-mail held by the
 *   mail server: a second start sends it, once;
 * - it is killed right after answering a forgotten password: a second start sends the reset, once;
 * - its mail server refuses every e-mail (451) for a while (REFUSAL_MS, standing in for the minute
 *   of a real outage, at MAIL_RETRY_BASE_SECONDS=0.1): each e-mail written meanwhile arrives once.
 */
const base = testDatabaseUrl();
if (!base) throw new Error('the resilience suite needs PostgreSQL: set DATABASE_URL (or TEST_DATABASE_URL)');

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

/** How long the mail server refuses in the outage test: long enough for several retries at a base of 0.1 s. */
const REFUSAL_MS = Number(process.env.MAIL_REFUSAL_MS ?? 2_000);

async function startMailServerAndPortal(env: Record<string, string> = {}) {
  const database = await createFreshDatabase(base!);
  cleanups.push(() => database.drop());
  const smtp = await new SmtpSink().start();
  cleanups.push(() => smtp.stop());
  const port = await freePort();
  const portalEnv = {
    DATABASE_URL: database.url,
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    SMTP_URL: smtp.url,
    MAIL_RETRY_BASE_SECONDS: '0.1',
    ...env,
  };
  const server = spawnServer(portalEnv);
  cleanups.push(() => server.stop());
  await waitForHealth(server.url, { server });
  const cookie = await login(server.url);
  const rootId = (await api(server.url, 'GET', '/api/identity/user-info', { cookie })).body.organizationId as string;
  return { database, smtp, env: portalEnv, server, cookie, rootId };
}

const until = (what: string, check: () => boolean | Promise<boolean>, timeoutMs = 30_000) => waitUntil(what, check, timeoutMs, 50);

describe('kill -9 between the change and its e-mail', () => {
  it('sends every invitation’s e-mail once after a restart', async () => {
    const database = await createFreshDatabase(base);
    cleanups.push(() => database.drop());
    const smtp = await new SmtpSink().start();
    cleanups.push(() => smtp.stop());
    smtp.refuseNext(Infinity, 451);
    const port = await freePort();
    const env = {
      DATABASE_URL: database.url,
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      SMTP_URL: smtp.url,
      MAIL_RETRY_BASE_SECONDS: '0.1',
    };
    const first = spawnServer(env);
    cleanups.push(() => first.stop());
    await waitForHealth(first.url, { server: first });
    const cookie = await login(first.url);
    const rootId = (await api(first.url, 'GET', '/api/identity/user-info', { cookie })).body.organizationId as string;

    const addresses = Array.from({ length: 5 }, (_, i) => `crash-${i}@example.com`);
    const invitations = new Map<string, string>();
    for (const email of addresses) {
      const res = await api(first.url, 'POST', `/api/organizations/${rootId}/invitations`, { cookie, body: { email_address: email } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      invitations.set(email, res.body.invitation.invitation_id as string);
    }
    // every e-mail was tried and refused; then the mail server stops answering, and the retries hang in flight
    await until('a first, refused attempt of each e-mail', () => addresses.every((a) => smtp.attempts.includes(a)));
    smtp.refuseNext(0);
    smtp.delayMs = 20_000;
    const tried = smtp.attempts.length;
    await until('retries in flight', () => smtp.attempts.length > tried);
    await first.kill9();

    const before = await sql<{ state: string; attempts: number }>(
      database.url,
      `SELECT state, attempts FROM outbox WHERE kind = 'email' AND payload->>'mail_kind' = 'invitation'`,
    );
    // each was refused once, or more often when its retries (after 0.1 s, 0.2 s…) came before the mail server stopped answering
    expect(
      before.map((r) => r.state),
      'each e-mail pending; the attempts in flight died with the process',
    ).toEqual(addresses.map(() => 'pending'));
    for (const { attempts } of before) expect(attempts).toBeGreaterThanOrEqual(1);
    expect(smtp.messages).toEqual([]);

    smtp.delayMs = 0;
    const second = spawnServer(env);
    cleanups.push(() => second.stop());
    await waitForHealth(second.url, { server: second });
    await until('every e-mail sent', async () => {
      const rows = await sql<{ n: number }>(
        database.url,
        `SELECT count(*)::int AS n FROM outbox WHERE kind = 'email' AND state = 'delivered'`,
      );
      return rows[0]!.n === addresses.length;
    });
    for (const email of addresses) {
      const mails = smtp.to(email);
      expect(mails, email).toHaveLength(1);
      const link = new URL(mails[0]!.links.find((l) => l.includes('/invitation/'))!);
      expect(link.pathname).toBe(`/invitation/${invitations.get(email)}`);
      const read = await api(second.url, 'GET', `/api/invitations/${invitations.get(email)}?code=${link.searchParams.get('code')}`);
      expect(read.status, 'the link of the e-mail sent after the restart works').toBe(200);
    }
    const pendingOrKept = await sql<{ n: number }>(
      database.url,
      `SELECT count(*)::int AS n FROM outbox
       WHERE kind = 'email' AND (state <> 'delivered' OR payload ? 'sealed_body' OR payload->>'text_body' <> '(sent through SMTP; body not kept)')`,
    );
    expect(pendingOrKept[0]!.n, 'sent, and no body kept').toBe(0);
    expect(second.errors()).toEqual([]);
    console.log(
      `mail outbox, kill -9: ${addresses.length} invitations, ${smtp.attempts.length} attempts in all, each e-mail delivered once after the restart`,
    );
  });
});

describe('kill -9 right after the change commits, before its e-mail is sent', () => {
  it('sends the e-mail once after a second start', async () => {
    const { database, smtp, env, server: first, cookie, rootId } = await startMailServerAndPortal();
    // the mail server holds every answer: the e-mail's first attempt is in flight, not sent
    smtp.delayMs = 60_000;
    const email = 'committed-then-killed@example.com';
    const res = await api(first.url, 'POST', `/api/organizations/${rootId}/invitations`, { cookie, body: { email_address: email } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    await until('the first attempt in flight', () => smtp.attempts.includes(email));
    await first.kill9();

    const before = await sql<{ state: string; attempts: number }>(
      database.url,
      `SELECT state, attempts FROM outbox WHERE kind = 'email' AND recipient = $1`,
      [email],
    );
    expect(before, 'written with the invitation, not sent, no attempt recorded').toEqual([{ state: 'pending', attempts: 0 }]);
    expect(smtp.messages).toEqual([]);

    smtp.delayMs = 0;
    const second = spawnServer(env);
    cleanups.push(() => second.stop());
    await waitForHealth(second.url, { server: second });
    await smtp.waitFor(email, () => true, 30_000);
    await until('the e-mail recorded as sent', async () => {
      const rows = await sql<{ state: string }>(database.url, `SELECT state FROM outbox WHERE kind = 'email' AND recipient = $1`, [email]);
      return rows[0]?.state === 'delivered';
    });
    expect(smtp.to(email), 'once').toHaveLength(1);
    expect(second.errors()).toEqual([]);
  });
});

describe('kill -9 right after a password reset was asked for', () => {
  it('sends the reset e-mail once after a second start', async () => {
    const { database, smtp, env, server: first } = await startMailServerAndPortal();
    // the mail server holds every answer: whatever the portal got to before the kill, nothing was sent
    smtp.delayMs = 60_000;
    // the request is in the outbox when the 204 comes (modules/identity/reset-requests.ts), not in the process's memory
    expect((await api(first.url, 'POST', '/api/identity/forgot-password', { body: { email_address: ADMIN_EMAIL } })).status).toBe(204);
    await first.kill9();
    const asked = await sql<{ n: number }>(database.url, `SELECT count(*)::int AS n FROM outbox WHERE kind = 'password_reset_request'`);
    expect(asked[0]!.n, 'the request written before the answer').toBe(1);
    expect(smtp.messages).toEqual([]);

    smtp.delayMs = 0;
    const second = spawnServer(env);
    cleanups.push(() => second.stop());
    await waitForHealth(second.url, { server: second });
    await smtp.waitFor(ADMIN_EMAIL, () => true, 30_000);
    await until('the e-mail recorded as sent', async () => {
      const rows = await sql<{ state: string }>(
        database.url,
        `SELECT state FROM outbox WHERE kind = 'email' AND payload->>'mail_kind' = 'password-reset'`,
      );
      return rows.length === 1 && rows[0]!.state === 'delivered';
    });
    expect(smtp.to(ADMIN_EMAIL), 'once').toHaveLength(1);
    expect(second.errors()).toEqual([]);
  });
});

describe('a mail server that refuses every e-mail (451) for a while', () => {
  it('delivers every e-mail written meanwhile, each once', async () => {
    const { database, smtp, server, cookie, rootId } = await startMailServerAndPortal();
    smtp.refuseFor(REFUSAL_MS, 451);
    const addresses = Array.from({ length: 6 }, (_, i) => `outage-${i}@example.com`);
    for (const email of addresses) {
      const res = await api(server.url, 'POST', `/api/organizations/${rootId}/invitations`, { cookie, body: { email_address: email } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    // the bootstrap administrator's reset e-mail (forgot-password: the request in the outbox, its e-mail written by the worker)
    expect((await api(server.url, 'POST', '/api/identity/forgot-password', { body: { email_address: ADMIN_EMAIL } })).status).toBe(204);
    const everyone = [...addresses, ADMIN_EMAIL];
    await until('a refused attempt of each e-mail', () => everyone.every((a) => smtp.attempts.includes(a)));
    expect(smtp.messages, 'nothing taken while the mail server refuses').toEqual([]);

    await until(
      'every e-mail sent',
      async () => {
        const rows = await sql<{ n: number }>(
          database.url,
          `SELECT count(*)::int AS n FROM outbox WHERE kind = 'email' AND state = 'delivered'`,
        );
        return rows[0]!.n === everyone.length;
      },
      REFUSAL_MS + 20_000,
    );
    for (const email of everyone) expect(smtp.to(email), email).toHaveLength(1);
    const tried = await sql<{ min: number }>(database.url, `SELECT min(attempts)::int AS min FROM outbox WHERE kind = 'email'`);
    expect(tried[0]!.min, 'each was refused before it was taken').toBeGreaterThan(1);
    expect(server.errors()).toEqual([]);
    console.log(`mail outbox, ${REFUSAL_MS} ms of 451: ${everyone.length} e-mails, ${smtp.attempts.length} attempts, each delivered once`);
  });
});
