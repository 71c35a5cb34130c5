import { afterAll, beforeAll, expect, it } from 'vitest';
import pg from 'pg';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { closeServices, createLogger, createServices } from '../../src/main.js';
import type { Services } from '../../src/services.js';
import { HttpClient } from '../support/http.js';
import { freePort, startPortal, type TestPortal } from '../support/portal.js';
import { needsPostgres } from '../support/needs.js';
import { createMember, rights, type Org } from '../organizations/fixtures.js';
import { DCR_TOKEN, registerClient } from '../oidc/support.js';
import { mailedResetLink, resetPassword } from './support.js';

/**
 * The per-instance session cache (http/session-cache.ts) with two instances of the portal on one
 * database, each with its own services and cache: a change made through one instance, or directly
 * in the database, takes effect on the other within a second, while the other answers its repeated
 * reads from its cache. Once over PostgreSQL's LISTEN/NOTIFY, once over Redis pub/sub.
 */
const DEADLINE_MS = 1000;

interface Instance {
  url: string;
  services: Services;
  app: FastifyInstance;
}

async function startSecondInstance(portal: TestPortal, env: Record<string, string> = {}): Promise<Instance> {
  const port = await freePort();
  const config = loadConfig({ ...envOf(portal), PORT: String(port), ...env });
  const services = await createServices(config, createLogger(config));
  const app = await buildApp(services);
  await app.listen({ port, host: '127.0.0.1' });
  return { url: `http://127.0.0.1:${port}`, services, app };
}

/**
 * The test portal (instance a, with `portalEnv` besides `env`) and a second instance (b) on its
 * database, and its root organization; close() stops both.
 */
async function startTwoInstances(env: Record<string, string> = {}, portalEnv: Record<string, string> = {}) {
  const portal = await startPortal({ ...env, ...portalEnv });
  let b: Instance;
  try {
    b = await startSecondInstance(portal, env);
  } catch (error) {
    await portal.close();
    throw error;
  }
  const a: Instance = { url: portal.url, services: portal.services, app: portal.app };
  const root: Org = { id: portal.rootOrganizationId, path: 'nedap', name: 'Nedap' };
  const close = async () => {
    await b.app.close();
    await closeServices(b.services);
    await portal.close();
  };
  return { portal, a, b, root, close };
}

function envOf(portal: TestPortal): Record<string, string> {
  const c = portal.config;
  return {
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PUBLIC_URL: c.PUBLIC_URL!,
    DATABASE_URL: c.DATABASE_URL!,
    DATABASE_POOL_SIZE: '5',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_MAX: '100000',
    RATE_LIMIT_SESSION_MAX: '100000',
    ...(c.REDIS_URL ? { REDIS_URL: c.REDIS_URL } : {}),
  };
}

/** The same browser (cookies) talking to another instance. */
function sameBrowserOn(url: string, client: HttpClient): HttpClient {
  const other = new HttpClient(url);
  for (const [k, v] of client.cookies) other.cookies.set(k, v);
  return other;
}

/** Poll until check passes; returns the milliseconds it took, failing after the deadline. */
async function within(check: () => Promise<boolean>, deadlineMs = DEADLINE_MS): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await check()) return Date.now() - started;
    if (Date.now() - started > deadlineMs) throw new Error(`not seen within ${deadlineMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function hits(services: Services, cache = 'sessions'): Promise<number> {
  return services.metrics.cacheLookups
    .get()
    .then((m) => m.values.find((v) => v.labels.cache === cache && v.labels.result === 'hit')?.value ?? 0);
}

/** Wait until the browser is signed out (user-info answers 401). */
const signedOut = (client: HttpClient) => within(async () => (await client.get('/api/identity/user-info')).status === 401);

/**
 * Read user-info through an instance until a read comes from its cache. The first read loads the
 * session; an announcement of the writes that made the member may still be on its way to this
 * instance and drop it once (that is the cache doing its job), so a pair is tried a few times.
 */
async function readCached(instance: Instance, client: HttpClient): Promise<any> {
  for (let attempt = 0; ; attempt++) {
    const first = await client.get('/api/identity/user-info');
    expect(first.status).toBe(200);
    const before = await hits(instance.services);
    const second = await client.get('/api/identity/user-info');
    expect(second.status).toBe(200);
    if ((await hits(instance.services)) === before + 1) return second.body;
    if (attempt === 5) throw new Error('no read came from the cache');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A new member of the root organization whose browser has been read through b's cache: the member, that browser on b, what b read. */
async function memberCachedOn(portal: TestPortal, root: Org, b: Instance, label: string) {
  const m = await createMember(portal, root, label, rights());
  const onB = sameBrowserOn(b.url, m.client);
  return { m, onB, cached: await readCached(b, onB) };
}

const suites: [string, Record<string, string>][] = [
  ['PostgreSQL LISTEN/NOTIFY', {}],
  ['Redis pub/sub (REDIS_URL)', { REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379' }],
];

for (const [name, env] of suites)
  needsPostgres(`the session cache across two instances, over ${name}`, () => {
    let portal: TestPortal;
    let a: Instance;
    let b: Instance;
    let root: Org;
    let close: () => Promise<void>;

    beforeAll(async () => ({ portal, a, b, root, close } = await startTwoInstances(env, { DCR_INITIAL_ACCESS_TOKEN: DCR_TOKEN })));
    afterAll(() => close?.());

    it('logout through one instance ends the session on the other within a second', async () => {
      const { m, onB } = await memberCachedOn(portal, root, b, 'logoutcache');
      const out = await m.client.post('/api/identity/logout', { logoutId: null });
      expect(out.status).toBe(200);
      await signedOut(onB);
    });

    it('removal of a member through one instance ends their session on the other', async () => {
      const admin = await portal.sessionFor(portal.adminUserId);
      const { m, onB } = await memberCachedOn(portal, root, b, 'removedcache');
      const res = await admin.delete(`/api/organizations/${root.id}/members/${m.memberId}`);
      expect(res.status).toBe(204);
      await signedOut(onB);
    });

    it('a rights change through one instance shows on the other', async () => {
      const admin = await portal.sessionFor(portal.adminUserId);
      const { m, onB, cached } = await memberCachedOn(portal, root, b, 'rightscache');
      expect(cached.rights.loyalty.user_access).toBe(false);
      const res = await admin.put(`/api/members/rights/${m.memberId}`, { rights: { loyalty: { user_access: true } } });
      expect(res.status).toBe(204);
      await within(async () => (await onB.get('/api/identity/user-info')).body.rights?.loyalty?.user_access === true);
    });

    it('a password reset through one instance ends the sessions on the other', async () => {
      const { m, onB } = await memberCachedOn(portal, root, b, 'resetcache');
      const { code } = await mailedResetLink(portal, m.email);
      const reset = await resetPassword(portal, m.userId, code, 'Fresh-Meadow-42');
      expect(reset.status).toBe(200);
      await signedOut(onB);
    });

    it('a change made through the same instance is seen by its very next request', async () => {
      const admin = await portal.sessionFor(portal.adminUserId);
      const m = await createMember(portal, root, 'ownwrite', rights());
      const onA = m.client;
      await readCached(a, onA);
      const res = await sameBrowserOn(a.url, admin).put(`/api/members/rights/${m.memberId}`, {
        rights: { subscription: { user_access: true } },
      });
      expect(res.status).toBe(204);
      expect((await onA.get('/api/identity/user-info')).body.rights.subscription.user_access).toBe(true);
    });

    it('a client deleted through one instance is refused by the other within a second, which read it from its cache', async () => {
      const registered = await registerClient(portal, { token_endpoint_auth_method: 'client_secret_basic', application_type: 'web' });
      const basic = Buffer.from(`${registered.client_id}:${registered.client_secret}`).toString('base64');
      // a token request whose client authenticates, with a grant that does not exist: 400 invalid_grant;
      // once the client is gone: 401 invalid_client
      const tokenRequest = async (url: string) => {
        const res = await fetch(`${url}/connect/token`, {
          method: 'POST',
          headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
          body: 'grant_type=refresh_token&refresh_token=no-such-token',
        });
        return { status: res.status, error: ((await res.json()) as { error: string }).error };
      };
      // until a lookup comes from b's cache: the announcement of the registration (made through a)
      // may reach b after its first lookup and keep that one out of the cache, as readCached says
      for (let attempt = 0; ; attempt++) {
        expect(await tokenRequest(b.url)).toEqual({ status: 400, error: 'invalid_grant' });
        const before = await hits(b.services, 'clients');
        expect(await tokenRequest(b.url)).toEqual({ status: 400, error: 'invalid_grant' });
        if ((await hits(b.services, 'clients')) === before + 1) break;
        expect(attempt, 'no lookup came from the cache').toBeLessThan(5);
        await new Promise((r) => setTimeout(r, 50));
      }

      const deleted = await fetch(registered.registration_client_uri as string, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${registered.registration_access_token as string}` },
      });
      expect(deleted.status).toBe(204);
      expect(new URL(registered.registration_client_uri as string).origin).toBe(new URL(a.url).origin);
      await within(async () => (await tokenRequest(b.url)).status === 401);
      expect((await tokenRequest(b.url)).error).toBe('invalid_client');
    });

    it('a change of a catalogue client in the database is followed by every instance', async () => {
      const clientId = 'cache-test-app';
      await portal.services.db.query(
        `INSERT INTO apps (client_id, name, oidc_metadata) VALUES ($1, 'Cache test', $2::jsonb)
       ON CONFLICT (client_id) DO UPDATE SET oidc_metadata = EXCLUDED.oidc_metadata`,
        [
          clientId,
          JSON.stringify({
            client_secret: 'first-secret-of-the-cache-test-app-0123456789',
            redirect_uris: ['https://app.example.com/callback'],
            grant_types: ['authorization_code', 'refresh_token'],
            token_endpoint_auth_method: 'client_secret_basic',
          }),
        ],
      );
      const tokenStatus = async (url: string, secret: string) =>
        (
          await fetch(`${url}/connect/token`, {
            method: 'POST',
            headers: {
              authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`,
              'content-type': 'application/x-www-form-urlencoded',
            },
            body: 'grant_type=refresh_token&refresh_token=no-such-token',
          })
        ).status;
      for (const instance of [a, b]) {
        expect(await tokenStatus(instance.url, 'first-secret-of-the-cache-test-app-0123456789')).toBe(400);
        expect(await tokenStatus(instance.url, 'first-secret-of-the-cache-test-app-0123456789')).toBe(400);
      }
      await portal.services.db.query(
        `UPDATE apps SET oidc_metadata = jsonb_set(oidc_metadata, '{client_secret}', '"second-secret-of-the-cache-test-app-0123456789"') WHERE client_id = $1`,
        [clientId],
      );
      for (const instance of [a, b]) {
        await within(async () => (await tokenStatus(instance.url, 'first-secret-of-the-cache-test-app-0123456789')) === 401);
        expect(await tokenStatus(instance.url, 'second-secret-of-the-cache-test-app-0123456789')).toBe(400);
      }
      await portal.services.db.query('DELETE FROM apps WHERE client_id = $1', [clientId]);
    });
  });

needsPostgres('the session cache over PostgreSQL LISTEN/NOTIFY', () => {
  let portal: TestPortal;
  let b: Instance;
  let root: Org;
  let close: () => Promise<void>;

  beforeAll(async () => ({ portal, b, root, close } = await startTwoInstances()));
  afterAll(() => close?.());

  it('follows a change made directly in the database, by no instance of the portal', async () => {
    const { m, onB, cached } = await memberCachedOn(portal, root, b, 'outside');
    expect(cached.firstName).toBe('outside');
    const outside = new pg.Client({ connectionString: portal.config.DATABASE_URL });
    await outside.connect();
    try {
      await outside.query(`UPDATE users SET first_name = 'Renamed' WHERE id = $1`, [m.userId]);
    } finally {
      await outside.end();
    }
    await within(async () => (await onB.get('/api/identity/user-info')).body.firstName === 'Renamed');
  });

  it('caches nothing while its listening connection is lost, and again once it is back', async () => {
    const { m, onB } = await memberCachedOn(portal, root, b, 'lostlisten');
    const cache = b.services.sessions.cache!;
    expect(cache.size).toBeGreaterThan(0);
    // cut every listening connection of the portal (both instances)
    await portal.services.db.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'partner-portal-listen' AND datname = current_database()`,
    );
    await within(async () => !cache.enabled);
    expect(cache.size).toBe(0);
    // meanwhile every read goes to the database: a change is seen at once
    await portal.services.db.query(`UPDATE users SET first_name = 'WhileDeaf' WHERE id = $1`, [m.userId]);
    expect((await onB.get('/api/identity/user-info')).body.firstName).toBe('WhileDeaf');
    // the connection comes back (it is tried again after a second: db/postgres.ts) and the cache with it
    await within(async () => cache.enabled, 5_000);
    await readCached(b, onB);
  });
});
