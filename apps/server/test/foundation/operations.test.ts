import { connect } from 'node:net';
import { createServer as createHttpServer } from 'node:http';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { needsPostgres } from '../support/needs.js';
import { shutdownGracefully } from '../../src/main.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startPortal, type TestPortal } from '../support/portal.js';
import { until } from '../support/wait.js';

/**
 * Operations (README, "Operations"): Prometheus metrics, liveness and readiness, overload answered
 * with 503 and Retry-After, graceful shutdown that drains requests in flight, OpenTelemetry traces.
 * Readiness during a PostgreSQL restart is in test-resilience/faults.test.ts.
 */
const portals: TestPortal[] = [];
afterAll(async () => {
  for (const p of portals) await p.close();
});
async function portal(env: Record<string, string> = {}): Promise<TestPortal> {
  const p = await startPortal(env);
  portals.push(p);
  return p;
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The Prometheus text exposition format, parsed: one sample per line that is not a comment. */
function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim() || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$/.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g))
      labels[l[1]!] = l[2]!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    samples.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return samples;
}
function value(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  return samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;
}

describe('GET /metrics', () => {
  it('is refused (404) when metrics are not configured, also for a browser', async () => {
    const p = await portal();
    expect((await p.client().get('/metrics')).status).toBe(404);
    expect((await p.client().get('/metrics', { headers: { accept: 'text/html' } })).status).toBe(404);
  });

  it('with METRICS_TOKEN: 401 without the bearer token; with it, a scrape that counts routes, statuses, logins and cache hits', async () => {
    const token = randomBytes(24).toString('hex');
    const p = await portal({ METRICS_TOKEN: token, LOGIN_RATE_LIMIT_PER_ACCOUNT: '2', LOGIN_RATE_LIMIT_PER_IP: '1000' });
    const anonymous = await p.client().get('/metrics');
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect((await p.client().get('/metrics', { headers: { authorization: `Bearer ${token}x` } })).status).toBe(401);

    // real logins: two that succeed, one with a wrong password; a second account locked after 2 attempts
    const admin = p.client();
    for (let i = 0; i < 2; i++) {
      expect((await admin.post('/api/identity/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD })).status).toBe(200);
    }
    const wrong = await p.client().post('/api/identity/login', { email: 'nobody@example.com', password: 'Wrong-Passw0rd!' });
    expect(wrong.status).toBe(400);
    const other = p.client();
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++)
      statuses.push((await other.post('/api/identity/login', { email: 'locked@example.com', password: 'Wrong-Passw0rd!' })).status);
    expect(statuses).toEqual([400, 400, 429]);
    // the organization tree twice: built once (a miss), then served from the cache (a hit)
    expect((await admin.get('/api/organizations/tree')).status).toBe(200);
    expect((await admin.get('/api/organizations/tree')).status).toBe(200);
    expect((await admin.get(`/api/organizations/${p.rootOrganizationId}`)).status).toBe(200);

    const scrape = await p.client().get('/metrics', { headers: { authorization: `Bearer ${token}` } });
    expect(scrape.status).toBe(200);
    expect(scrape.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const samples = parseExposition(scrape.text);
    const duration = 'partner_portal_http_request_duration_seconds_count';
    expect(value(samples, duration, { method: 'POST', route: '/api/identity/login', status_code: '200' })).toBe(2);
    expect(value(samples, duration, { method: 'POST', route: '/api/identity/login', status_code: '400' })).toBe(3);
    expect(value(samples, duration, { method: 'POST', route: '/api/identity/login', status_code: '429' })).toBe(1);
    // the route pattern, not the path: one series for every organization
    expect(value(samples, duration, { method: 'GET', route: '/api/organizations/:organizationId', status_code: '200' })).toBe(1);
    expect(value(samples, duration, { method: 'GET', route: '/metrics', status_code: '401' })).toBe(2);
    expect(value(samples, 'partner_portal_logins_total', { outcome: 'succeeded' })).toBe(2);
    expect(value(samples, 'partner_portal_logins_total', { outcome: 'failed' })).toBe(3);
    expect(value(samples, 'partner_portal_login_locks_total')).toBe(1);
    expect(value(samples, 'partner_portal_cache_lookups_total', { cache: 'organization_tree', result: 'miss' })).toBe(1);
    expect(value(samples, 'partner_portal_cache_lookups_total', { cache: 'organization_tree', result: 'hit' })).toBe(1);
    expect(value(samples, 'partner_portal_db_pool_connections', { state: 'total' })).toBeGreaterThanOrEqual(1);
    expect(value(samples, 'partner_portal_db_pool_connections', { state: 'waiting' })).toBe(0);
    expect(value(samples, 'nodejs_eventloop_lag_p99_seconds')).toBeGreaterThanOrEqual(0);
    expect(value(samples, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    // the counter of second-factor checks exists (counted in apps/server/test/factors/totp.test.ts)
    expect(scrape.text).toMatch(/^# TYPE partner_portal_second_factor_checks_total counter$/m);
  });
});

describe('liveness and readiness', () => {
  it('/health/live and /health/ready answer 200 on a running portal, without X-CSRF', async () => {
    const p = await portal();
    for (const path of ['/health/live', '/health/ready', '/health']) {
      const res = await p.client().get(path);
      expect(res.status, path).toBe(200);
      expect(res.body, path).toEqual({ status: 'ok' });
      expect(res.headers.get('cache-control'), path).toBe('no-store');
    }
  });
});

needsPostgres('a database busy to its last connection', () => {
  it("answers a request that waited past the pool's time limit with 503 and Retry-After, not 500", async () => {
    const p = await portal({ DATABASE_POOL_SIZE: '2' });
    const admin = await p.sessionFor(p.adminUserId);
    // both of the pool's connections wait on a lock that a connection outside the pool holds until
    // the answer has come: busy for as long as it takes, however slow the machine is
    const holder = new pg.Client({ connectionString: p.config.DATABASE_URL });
    await holder.connect();
    try {
      await holder.query('SELECT pg_advisory_lock(4242)');
      const busy = Promise.all([1, 2].map(() => p.services.db.query('SELECT pg_advisory_xact_lock(4242)')));
      await expect
        .poll(
          async () => {
            const { rows } = await holder.query<{ n: number }>(
              "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%pg_advisory_xact_lock(4242)%' AND pid <> pg_backend_pid()",
            );
            return rows[0]!.n;
          },
          { timeout: 30_000 },
        )
        .toBe(2);
      const res = await admin.get('/api/organizations/tree');
      await holder.query('SELECT pg_advisory_unlock(4242)');
      await busy;
      expect(res.status).toBe(503);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(res.body).toMatchObject({ status: 503, i18NTranslationKey: 'service_unavailable' });
    } finally {
      await holder.end();
    }
  }, 90_000);
});

describe('overload', () => {
  it('is answered with 503, a problem and Retry-After; liveness is still answered', async () => {
    // a heap limit of 1 MB: the instance counts as overloaded from its first measurement on
    const p = await portal({ OVERLOAD_MAX_HEAP_USED_MB: '1', OVERLOAD_RETRY_AFTER_SECONDS: '7' });
    let res = await p.client().get('/api/identity/user-info');
    await expect
      .poll(async () => (res = await p.client().get('/api/identity/user-info')).status, { timeout: 5_000, interval: 50 })
      .toBe(503);
    expect(res.headers.get('retry-after')).toBe('7');
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ status: 503, i18NTranslationKey: 'service_unavailable' });
    expect((await p.client().get('/health/live')).status).toBe(200);
  });
});

/** Whether a new TCP connection to the port is refused. */
function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED'));
  });
}

describe('graceful shutdown', () => {
  it('lets a request in flight finish while new connections are refused', async () => {
    const p = await portal();
    const client = await p.sessionFor(p.adminUserId);
    const port = Number(new URL(p.url).port);
    // a transaction holds the administrator's row (on PGlite: the one connection), so that a
    // profile update waits in the middle of its request until it ends
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let holding!: () => void;
    const held = new Promise<void>((r) => (holding = r));
    const blocker = p.services.db.transaction(async (tx) => {
      await tx.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [p.adminUserId]);
      holding();
      await gate;
    });
    await held;
    const inFlight = client.put('/api/identity/update-profile', { first_name: 'Drained', last_name: 'Request', language_code: 'en' });
    // the request has reached the server (its connection is open) and waits
    const connections = () => new Promise<number>((r) => p.app.server.getConnections((_err, n) => r(n)));
    await until('the request connected', async () => (await connections()) > 0, 5_000);
    // and is read and waiting (nothing outside the server tells when it was read): kept
    await sleep(200);

    const started = Date.now();
    const shutdown = shutdownGracefully(p.app, p.services);
    // the listener closes at once; the request in flight is still waiting
    await until('new connections refused', () => refused(port), 5_000);
    // the behaviour under test: the shutdown waits as long as the request does (300 ms here)
    await sleep(300);
    release();
    await blocker;
    const res = await inFlight;
    expect(res.status).toBe(204);
    expect(await shutdown).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
  });
});

describe('OpenTelemetry traces', () => {
  it('with OTEL_EXPORTER_OTLP_ENDPOINT, a request becomes a span of the caller trace, sent over OTLP/HTTP', async () => {
    const received: unknown[] = [];
    const collector = createHttpServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (req.url === '/v1/traces') received.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((r) => collector.listen(0, '127.0.0.1', r));
    const address = collector.address();
    const endpoint = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    try {
      const p = await startPortal({ OTEL_EXPORTER_OTLP_ENDPOINT: endpoint });
      const traceId = randomBytes(16).toString('hex');
      const res = await p
        .client()
        .get('/api/identity/user-info', { headers: { traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` } });
      expect(res.status).toBe(401);
      await p.close(); // sends what is buffered
      const spans = (
        received as {
          resourceSpans: {
            resource: { attributes: { key: string; value: { stringValue?: string } }[] };
            scopeSpans: { spans: { traceId: string; name: string; attributes: { key: string; value: { stringValue?: string } }[] }[] }[];
          }[];
        }[]
      )
        .flatMap((r) => r.resourceSpans)
        .flatMap((rs) =>
          rs.scopeSpans.flatMap((ss) =>
            ss.spans.map((s) => ({ ...s, service: rs.resource.attributes.find((a) => a.key === 'service.name')?.value.stringValue })),
          ),
        );
      const ours = spans.filter((s) => s.traceId === traceId);
      expect(ours.length).toBeGreaterThan(0);
      expect(ours.every((s) => s.service === 'partner-portal')).toBe(true);
      expect(ours.some((s) => s.attributes.some((a) => a.key === 'http.route' && a.value.stringValue === '/api/identity/user-info'))).toBe(
        true,
      );
    } finally {
      await new Promise((r) => collector.close(r));
    }
  });
});
