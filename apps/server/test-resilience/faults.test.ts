import { afterAll, describe, expect, it } from 'vitest';
import { createFreshDatabase, testDatabaseUrl } from '../test/support/database.js';
import { freePort } from '../test/support/portal.js';
import { createDatabase, startOwnPostgres, type OwnPostgres } from './support/postgres.js';
import { api, login, spawnServer, sql, waitForHealth, type ServerProcess } from './support/server.js';

/**
 * Faults.
 * - kill -9 of the server in the middle of a stream of writes, then a restart: every write that
 *   was acknowledged (2xx) is there, and nothing is half-written (each organization has its apps
 *   and its audit entry, written in the same transaction).
 * - A PostgreSQL restart under a running portal: /health and /health/ready go 503 (while
 *   /health/live stays 200), then 200 again, and requests recover without restarting the portal. This uses a PostgreSQL cluster of its own (never the
 *   machine's shared server).
 */
const base = testDatabaseUrl();
if (!base) throw new Error('the resilience suite needs PostgreSQL: set DATABASE_URL (or TEST_DATABASE_URL)');

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const probe = async (url: string, path: string) => (await fetch(`${url}${path}`, { signal: AbortSignal.timeout(10_000) })).status;

describe('kill -9 during a stream of writes', () => {
  it('keeps every acknowledged write, and nothing half-written', async () => {
    const database = await createFreshDatabase(base);
    cleanups.push(() => database.drop());
    const port = await freePort();
    const env = {
      DATABASE_URL: database.url,
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      RATE_LIMIT_MAX: '100000',
      RATE_LIMIT_SESSION_MAX: '100000',
      DATABASE_POOL_SIZE: '10',
    };
    const first = spawnServer(env);
    cleanups.push(() => first.stop());
    await waitForHealth(first.url, { server: first });
    const cookie = await login(first.url);
    const me = await api(first.url, 'GET', '/api/identity/user-info', { cookie });
    const rootId = me.body.organizationId as string;

    const CLIENT_IDS = ['partner-portal', 'loyalty-app', 'media-library'];
    const ackedOrganizations = new Map<string, string>(); // id → name
    const ackedInvitations = new Map<string, string>(); // id → email
    let attempted = 0;
    let killed = false;
    let failedAfterKill = 0;

    async function writer(w: number): Promise<void> {
      for (let i = 0; !killed; i++) {
        attempted++;
        try {
          if (i % 3 === 2) {
            const email = `kill-${w}-${i}@example.com`;
            const res = await api(first.url, 'POST', `/api/organizations/${rootId}/invitations`, {
              cookie,
              body: { email_address: email, language_code: 'en' },
            });
            if (res.status >= 200 && res.status < 300) ackedInvitations.set(res.body.invitation.invitation_id as string, email);
            else if (!killed) throw new Error(`invitation: ${res.status} ${JSON.stringify(res.body)}`);
          } else {
            const name = `Kill ${w} ${i}`;
            const res = await api(first.url, 'POST', '/api/organizations', {
              cookie,
              body: { parent_organization_id: rootId, name, client_ids: CLIENT_IDS, can_create_sub_organization: true },
            });
            if (res.status >= 200 && res.status < 300) ackedOrganizations.set(res.body.id as string, name);
            else if (!killed) throw new Error(`organization: ${res.status} ${JSON.stringify(res.body)}`);
          }
        } catch (err) {
          if (!killed) throw err;
          failedAfterKill++;
          return;
        }
      }
    }

    const writers = Array.from({ length: 8 }, (_, w) => writer(w));
    // let writes flow, then pull the plug while requests are in flight
    const deadline = Date.now() + 15_000;
    while (ackedOrganizations.size + ackedInvitations.size < 40 && Date.now() < deadline) await sleep(50);
    killed = true;
    await first.kill9();
    await Promise.all(writers);
    expect(ackedOrganizations.size).toBeGreaterThan(10);
    expect(ackedInvitations.size).toBeGreaterThan(3);

    const second = spawnServer(env);
    cleanups.push(() => second.stop());
    await waitForHealth(second.url, { server: second });

    // every acknowledged organization is there, whole
    const orgs = await sql<{ id: string; name: string; parent_id: string; depth: number; apps: string[]; audits: number }>(
      database.url,
      `SELECT o.id, o.name, o.parent_id, o.depth,
              coalesce((SELECT array_agg(client_id ORDER BY client_id) FROM organization_apps a WHERE a.organization_id = o.id), '{}') AS apps,
              (SELECT count(*)::int FROM audit_log l WHERE l.target_id = o.id::text AND l.action = 'organization.create') AS audits
       FROM organizations o WHERE o.name LIKE 'Kill %'`,
    );
    const byId = new Map(orgs.map((o) => [o.id, o]));
    const missing = [...ackedOrganizations].filter(([id]) => !byId.has(id));
    expect(missing, 'acknowledged organizations missing after the crash').toEqual([]);
    for (const [id, name] of ackedOrganizations) expect(byId.get(id)!.name).toBe(name);
    // nothing half-written: every organization that exists (acknowledged or not) has its apps and its audit entry
    const half = orgs.filter(
      (o) => o.parent_id !== rootId || o.depth !== 1 || o.apps.join(',') !== [...CLIENT_IDS].sort().join(',') || o.audits !== 1,
    );
    expect(half, 'half-written organizations').toEqual([]);

    const invitations = await sql<{ id: string; email: string; state: string; code_hash: string; audits: number }>(
      database.url,
      `SELECT i.id, i.email, i.state, i.code_hash,
              (SELECT count(*)::int FROM audit_log l WHERE l.target_id = i.id::text AND l.action = 'invitation.create') AS audits
       FROM invitations i WHERE i.email LIKE 'kill-%'`,
    );
    const invById = new Map(invitations.map((i) => [i.id, i]));
    expect(
      [...ackedInvitations].filter(([id]) => !invById.has(id)),
      'acknowledged invitations missing',
    ).toEqual([]);
    for (const [id, email] of ackedInvitations) expect(invById.get(id)!.email).toBe(email);
    expect(
      invitations.filter((i) => i.state !== 'PENDING' || !i.code_hash || i.audits !== 1),
      'half-written invitations',
    ).toEqual([]);

    // and the restarted portal serves them
    const cookie2 = await login(second.url);
    for (const id of [...ackedOrganizations.keys()].slice(0, 5)) {
      expect((await api(second.url, 'GET', `/api/organizations/${id}`, { cookie: cookie2 })).status).toBe(200);
    }
    console.log(
      `kill -9: ${attempted} writes attempted, ${ackedOrganizations.size} organizations and ${ackedInvitations.size} invitations acknowledged, ${orgs.length - ackedOrganizations.size} organizations committed without an acknowledgement, ${failedAfterKill} requests cut`,
    );
    expect(second.errors()).toEqual([]);
  });
});

describe('a PostgreSQL restart under a running portal', () => {
  it('/health and /health/ready go 503 (/health/live stays 200), then 200, and requests recover without restarting the portal', async () => {
    let own: OwnPostgres;
    try {
      own = await startOwnPostgres(await freePort());
    } catch (err) {
      throw new Error(`could not start a PostgreSQL cluster of our own (initdb/pg_ctl): ${(err as Error).message}`, { cause: err });
    }
    cleanups.push(() => own.destroy());
    await createDatabase(own.url(), 'portal');
    const port = await freePort();
    const server: ServerProcess = spawnServer({
      DATABASE_URL: own.url('portal'),
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      RATE_LIMIT_MAX: '100000',
      RATE_LIMIT_SESSION_MAX: '100000',
    });
    cleanups.push(() => server.stop());
    await waitForHealth(server.url, { server });
    const cookie = await login(server.url);
    expect((await api(server.url, 'GET', '/api/identity/user-info', { cookie })).status).toBe(200);

    expect(await probe(server.url, '/health/ready')).toBe(200);
    expect(await probe(server.url, '/health/live')).toBe(200);

    own.stop('fast');
    await waitForHealth(server.url, { status: 503, timeoutMs: 30_000 });
    // not ready while the database is away, but alive: restarting the portal would not help
    expect(await probe(server.url, '/health/ready')).toBe(503);
    expect(await probe(server.url, '/health/live')).toBe(200);
    // while the database is away: problems with 503, never a crash or a 500
    const during = await api(server.url, 'GET', '/api/identity/user-info', { cookie, timeoutMs: 20_000 });
    expect(during.status).toBe(503);
    expect(during.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(server.child.exitCode).toBeNull();

    own.start();
    await waitForHealth(server.url, { status: 200, timeoutMs: 60_000 });
    expect(await probe(server.url, '/health/ready')).toBe(200);
    // the same process, the same session, reads and writes work again
    expect(server.child.exitCode).toBeNull();
    let status = 0;
    for (let i = 0; i < 20 && status !== 200; i++) {
      status = (await api(server.url, 'GET', '/api/identity/user-info', { cookie })).status;
      if (status !== 200) await sleep(250);
    }
    expect(status).toBe(200);
    const profile = await api(server.url, 'PUT', '/api/identity/update-profile', {
      cookie,
      body: { first_name: 'After', last_name: 'Restart', language_code: 'en' },
    });
    expect(profile.status).toBe(204);
    expect((await api(server.url, 'GET', '/api/identity/user-info', { cookie })).body.firstName).toBe('After');
    const unhandled = server.errors().filter((l) => l.msg === 'unhandled error');
    expect(unhandled, 'database outage errors reached the generic 500 handler').toEqual([]);
  });
});
