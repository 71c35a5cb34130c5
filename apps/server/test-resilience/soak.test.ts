import autocannon, { type Request as CannonRequest, type Result as CannonResult } from 'autocannon';
import { afterAll, describe, expect, it } from 'vitest';
import { createFreshDatabase, testDatabaseUrl } from '../test/support/database.js';
import { freePort } from '../test/support/portal.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  api,
  liveHeapAfterFullCollections,
  login,
  rssKb,
  spawnServer,
  waitForHealth,
} from './support/server.js';

/**
 * Load: autocannon, 200 concurrent connections for 60 s (SOAK_SECONDS and
 * SOAK_CONNECTIONS change that), against the built server on PostgreSQL, on loopback. The mix:
 * logins, user-info, tree reads, portal tiles and invitation creation. Expected: no 5xx, no
 * connection errors or time-outs, no log line of level error, and no leak: the live heap after
 * each full collection (--trace-gc) flat from the second quarter of the load to the last, resident
 * memory under a ceiling. Resident memory itself is not the leak measure: it follows the heap V8
 * reserves as it warms up (slower on a slower machine) and the allocator's pages, and swings by
 * 100 MB from one second to the next under this load while the live heap stays within a few MB.
 */
const SECONDS = Number(process.env.SOAK_SECONDS ?? 60);
const CONNECTIONS = Number(process.env.SOAK_CONNECTIONS ?? 200);

const base = testDatabaseUrl();
if (!base) throw new Error('the resilience suite needs PostgreSQL: set DATABASE_URL (or TEST_DATABASE_URL)');

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
};

describe('soak', () => {
  it(`${CONNECTIONS} connections for ${SECONDS} s: no 5xx, no errors in the logs, memory flat`, async () => {
    const database = await createFreshDatabase(base);
    cleanups.push(() => database.drop());
    const port = await freePort();
    const server = spawnServer(
      {
        DATABASE_URL: database.url,
        PORT: String(port),
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        // the load comes from one address: the limits are not what is measured here
        RATE_LIMIT_MAX: '100000000',
        RATE_LIMIT_SESSION_MAX: '100000000',
        LOGIN_RATE_LIMIT_PER_ACCOUNT: '100000000',
        LOGIN_RATE_LIMIT_PER_IP: '100000000',
        // warn and worse only: an info line per request would load the pipe, not the portal
        LOG_LEVEL: 'warn',
      },
      { nodeFlags: ['--trace-gc'] },
    );
    cleanups.push(() => server.stop());
    await waitForHealth(server.url, { server });
    const cookie = await login(server.url);
    const rootId = (await api(server.url, 'GET', '/api/identity/user-info', { cookie })).body.organizationId as string;

    const json = { 'content-type': 'application/json', 'x-csrf': '1' };
    const signedIn = { 'x-csrf': '1', cookie };
    let invitation = 0;
    const read = (path: string) => ({ method: 'GET', path, headers: signedIn });
    const invite = () => ({
      method: 'POST',
      path: `/api/organizations/${rootId}/invitations`,
      headers: { ...json, cookie },
      setupRequest: (request: CannonRequest) => ({
        ...request,
        body: JSON.stringify({ email_address: `soak-${process.pid}-${++invitation}@example.com`, language_code: 'en' }),
      }),
    });
    // the reads every page makes: who is signed in, the organization tree
    const glance = () => [read('/api/identity/user-info'), read('/api/organizations/tree')];
    // one cycle per connection: mostly reads, two invitations, one password login (argon2 is the
    // expensive part by design)
    const cycle = [
      ...glance(),
      read('/api/portal'),
      invite(),
      ...glance(),
      read(`/api/organizations/${rootId}`),
      read('/api/portal/notifications'),
      ...glance(),
      {
        method: 'POST',
        path: '/api/identity/login',
        headers: json,
        body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
      },
      ...glance(),
      read('/api/portal'),
      invite(),
      ...glance(),
      read('/api/portal/application/features'),
      ...glance(),
    ];

    const rss: number[] = [];
    const sampler = setInterval(() => {
      try {
        rss.push(rssKb(server.pid));
      } catch {
        /* the process is gone: the assertions below say so */
      }
    }, 1000);
    const started = Date.now();
    const loadStartsAt = server.text.length;
    let result: CannonResult;
    try {
      result = await autocannon({ url: server.url, connections: CONNECTIONS, duration: SECONDS, timeout: 30, requests: cycle });
    } finally {
      clearInterval(sampler);
    }
    const fiveHundreds = Object.entries(result.statusCodeStats)
      .filter(([code]) => code.startsWith('5'))
      .reduce((n, [, s]) => n + Number(s.count), 0);
    const quarters = <T>(xs: T[]) => {
      const q = Math.max(1, Math.floor(xs.length / 4));
      return { second: xs.slice(q, 2 * q), last: xs.slice(-q) };
    };
    const heap = liveHeapAfterFullCollections(server.text, loadStartsAt);
    const heapEarly = median(quarters(heap).second);
    const heapLate = median(quarters(heap).last);
    const early = median(quarters(rss).second);
    const late = median(quarters(rss).last);
    const summary = {
      seconds: (Date.now() - started) / 1000,
      requests: result.requests.total,
      perSecond: Math.round(result.requests.average),
      latencyMs: { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max },
      statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats).map(([k, v]) => [k, Number(v.count)])),
      errors: result.errors,
      timeouts: result.timeouts,
      invitations: invitation,
      rssMb: {
        first: Math.round((rss[0] ?? 0) / 1024),
        early: Math.round(early / 1024),
        late: Math.round(late / 1024),
        max: Math.round(Math.max(...rss) / 1024),
      },
      liveHeapMb: { fullCollections: heap.length, early: heapEarly, late: heapLate, max: Math.max(...heap) },
      errorLogLines: server.errors().length,
    };
    console.log('soak', JSON.stringify(summary));

    expect(server.child.exitCode, 'the server is still running').toBeNull();
    expect(result.requests.total).toBeGreaterThan(0);
    expect(fiveHundreds, '5xx answers').toBe(0);
    expect(result.errors, 'connection errors').toBe(0);
    expect(result.timeouts, 'time-outs').toBe(0);
    expect(server.errors().slice(0, 5), 'log lines of level error or worse').toEqual([]);
    // no leak: the live heap after the full collections of the last quarter within 25 % (or
    // 16 MB) of the second quarter's; resident memory under 768 MB all along
    expect(heap.length, 'full collections during the load (--trace-gc)').toBeGreaterThanOrEqual(3);
    expect(heapLate - heapEarly, `live heap early ${heapEarly} MB, late ${heapLate} MB`).toBeLessThan(Math.max(16, heapEarly * 0.25));
    expect(Math.max(...rss), 'resident memory, kB').toBeLessThan(768 * 1024);
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
  });
});
