import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminQuery, testDatabaseUrl, withDatabase } from '../test/support/database.js';
import { freePort } from '../test/support/portal.js';
import { startProxy, type RoundRobinProxy } from './support/proxy.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, api, login, spawnServer, sql, waitForHealth, type ServerProcess } from './support/server.js';

/**
 * Horizontal scale: two server processes on one PostgreSQL database behind a
 * round-robin proxy. Both start at once on an empty database (migrations and bootstrap must not
 * race); a session made on one works on the other; the login throttle and the general rate limit
 * count across both; OpenID Connect discovery and keys are the same on both.
 */
const base = testDatabaseUrl();
if (!base) throw new Error('the resilience suite needs PostgreSQL: set DATABASE_URL (or TEST_DATABASE_URL)');

interface Cluster {
  a: ServerProcess;
  b: ServerProcess;
  proxy: RoundRobinProxy;
  databaseUrl: string;
  drop(): Promise<void>;
}

/** An empty database (no template: the servers migrate it) and two servers behind a proxy. */
async function startCluster(env: Record<string, string> = {}): Promise<Cluster> {
  const name = `pp_scale_${randomBytes(4).toString('hex')}`;
  await adminQuery(base!, `CREATE DATABASE ${name}`);
  const databaseUrl = withDatabase(base!, name);
  const [portA, portB, proxyPort] = [await freePort(), await freePort(), await freePort()];
  const publicUrl = `http://127.0.0.1:${proxyPort}`;
  const common = { DATABASE_URL: databaseUrl, PUBLIC_URL: publicUrl, DATABASE_POOL_SIZE: '5', ...env };
  // both at once
  const a = spawnServer({ ...common, PORT: String(portA) });
  const b = spawnServer({ ...common, PORT: String(portB) });
  await Promise.all([waitForHealth(a.url, { server: a }), waitForHealth(b.url, { server: b })]);
  const proxy = await startProxy([a.url, b.url], proxyPort);
  return {
    a,
    b,
    proxy,
    databaseUrl,
    async drop() {
      await proxy.close();
      await Promise.all([a.stop(), b.stop()]);
      await adminQuery(base!, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
    },
  };
}

describe('two instances behind a round-robin proxy', () => {
  let cluster: Cluster;
  beforeAll(async () => {
    cluster = await startCluster({
      RATE_LIMIT_MAX: '100000',
      RATE_LIMIT_SESSION_MAX: '100000',
      LOGIN_RATE_LIMIT_PER_ACCOUNT: '4',
      LOGIN_RATE_LIMIT_PER_IP: '100000',
    });
  });
  afterAll(async () => {
    await cluster?.drop();
  });

  it('started at once on an empty database: every migration applied once, one root organization, one administrator', async () => {
    const migrations = await sql<{ version: number; n: number }>(
      cluster.databaseUrl,
      'SELECT version, count(*)::int AS n FROM schema_migrations GROUP BY version',
    );
    expect(migrations.length).toBeGreaterThan(0);
    expect(migrations.every((m) => m.n === 1)).toBe(true);
    const roots = await sql<{ n: number }>(cluster.databaseUrl, 'SELECT count(*)::int AS n FROM organizations WHERE parent_id IS NULL');
    expect(roots[0]!.n).toBe(1);
    const admins = await sql<{ n: number }>(cluster.databaseUrl, 'SELECT count(*)::int AS n FROM users WHERE lower(email) = lower($1)', [
      ADMIN_EMAIL,
    ]);
    expect(admins[0]!.n).toBe(1);
    const secrets = await sql<{ name: string }>(cluster.databaseUrl, 'SELECT name FROM settings ORDER BY name');
    expect(new Set(secrets.map((s) => s.name)).size).toBe(secrets.length);
    // neither instance failed at start
    expect(cluster.a.child.exitCode).toBeNull();
    expect(cluster.b.child.exitCode).toBeNull();
    expect([...cluster.a.errors(), ...cluster.b.errors()]).toEqual([]);
  });

  it('the proxy spreads requests over both instances', async () => {
    const served = new Set<string>();
    for (let i = 0; i < 4; i++) {
      const res = await fetch(`${cluster.proxy.url}/health`);
      expect(res.status).toBe(200);
      served.add(res.headers.get('x-served-by')!);
    }
    expect(served).toEqual(new Set([String(cluster.a.port), String(cluster.b.port)]));
  });

  it('a session made on one instance works on the other, and a logout on one ends it on both', async () => {
    const cookie = await login(cluster.a.url);
    const onB = await api(cluster.b.url, 'GET', '/api/identity/user-info', { cookie });
    expect(onB.status).toBe(200);
    expect(onB.body.email).toBe(ADMIN_EMAIL);
    // and through the proxy, whichever instance answers
    for (let i = 0; i < 4; i++) expect((await api(cluster.proxy.url, 'GET', '/api/identity/user-info', { cookie })).status).toBe(200);
    expect((await api(cluster.b.url, 'POST', '/api/identity/logout', { cookie, body: {} })).status).toBeLessThan(300);
    expect((await api(cluster.a.url, 'GET', '/api/identity/user-info', { cookie })).status).toBe(401);
  });

  it('the login throttle counts attempts on both instances together', async () => {
    // the administrator signed in once above, which does not count: only failed password checks
    // do, 4 in the window, whichever instance checks them
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const target = i % 2 ? cluster.b.url : cluster.a.url;
      statuses.push(
        (await api(target, 'POST', '/api/identity/login', { body: { email: ADMIN_EMAIL, password: 'Wrong-Passw0rd!' } })).status,
      );
    }
    expect(statuses).toEqual([400, 400, 400, 400, 429, 429]);
    const right = await api(cluster.b.url, 'POST', '/api/identity/login', { body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } });
    expect(right.status).toBe(429);
    expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(0);
    // an address nobody has: 4 attempts, the 5th refused, alternating instances
    const ghost: number[] = [];
    for (let i = 0; i < 6; i++) {
      const target = i % 2 ? cluster.b.url : cluster.a.url;
      ghost.push(
        (await api(target, 'POST', '/api/identity/login', { body: { email: 'ghost@example.com', password: 'Wrong-Passw0rd!' } })).status,
      );
    }
    expect(ghost).toEqual([400, 400, 400, 400, 429, 429]);
  });

  it('OpenID Connect discovery and signing keys are the same on both instances, with the proxy as issuer', async () => {
    // through the proxy (so the Host header is the public one), one answer from each instance
    const fetchBoth = async (path: string) => {
      const byInstance = new Map<string, unknown>();
      for (let i = 0; i < 4 && byInstance.size < 2; i++) {
        const res = await fetch(`${cluster.proxy.url}${path}`);
        expect(res.status).toBe(200);
        byInstance.set(res.headers.get('x-served-by')!, await res.json());
      }
      expect(byInstance.size).toBe(2);
      return [...byInstance.values()] as [Record<string, unknown>, Record<string, unknown>];
    };
    const [discA, discB] = await fetchBoth('/.well-known/openid-configuration');
    expect(discA).toEqual(discB);
    expect(discA.issuer).toBe(cluster.proxy.url);
    const jwksUri = new URL(String(discA.jwks_uri));
    expect(jwksUri.origin).toBe(cluster.proxy.url);
    const [keysA, keysB] = await fetchBoth(jwksUri.pathname);
    expect((keysA as { keys: unknown[] }).keys.length).toBeGreaterThan(0);
    expect(keysA).toEqual(keysB);
    // and directly from each instance: the same keys
    const direct = await Promise.all([cluster.a.url, cluster.b.url].map(async (u) => (await fetch(`${u}${jwksUri.pathname}`)).json()));
    expect(direct[0]).toEqual(direct[1]);
    expect(direct[0]).toEqual(keysA);
  });
});

describe('the general rate limit across instances', () => {
  let cluster: Cluster;
  const MAX = 30;
  beforeAll(async () => {
    cluster = await startCluster({ RATE_LIMIT_MAX: String(MAX), RATE_LIMIT_WINDOW_SECONDS: '120' });
  });
  afterAll(async () => {
    await cluster?.drop();
  });

  it('hits through both instances count together (shared counter, batched every 250 ms)', async () => {
    let allowed = 0;
    let limited: Response | undefined;
    for (let i = 0; i < 4 * MAX && !limited; i++) {
      const res = await fetch(`${cluster.proxy.url}/api/portal/configuration`, { headers: { 'x-csrf': '1' } });
      await res.arrayBuffer();
      if (res.status === 429) limited = res;
      else allowed++;
      // let the batches reach PostgreSQL now and then, as real traffic spread over time would
      if (i % 5 === 4) await new Promise((r) => setTimeout(r, 300));
    }
    expect(limited, 'a 429 came').toBeDefined();
    expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThan(0);
    // per-instance counting would allow 2 × MAX; shared counting about MAX (plus one batch of slack)
    expect(allowed).toBeGreaterThanOrEqual(MAX - 1);
    expect(allowed).toBeLessThan(MAX + 10);
    // and both instances refuse now (an instance learns the shared count when it next flushes its own hits)
    for (const u of [cluster.a.url, cluster.b.url]) {
      let status = 0;
      for (let i = 0; i < 5 && status !== 429; i++) {
        status = (await fetch(`${u}/api/portal/configuration`, { headers: { 'x-csrf': '1' } })).status;
        if (status !== 429) await new Promise((r) => setTimeout(r, 300));
      }
      expect(status, u).toBe(429);
    }
  });
});
