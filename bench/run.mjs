#!/usr/bin/env node
// npm run bench: measure the portal against the physical limits and its peers, in one run on this
// machine with PostgreSQL. Prints a table and writes bench/results.json. See bench/README.md.
//
// Environment: DATABASE_URL (admin URL; a fresh pp_bench_<ts> database is made on it and dropped),
// BENCH_QUICK=1 (short runs, 100k members only), BENCH_MEMBERS_LARGE (default 1000000),
// BENCH_SKIP_BUILD=1, BENCH_KEEP_DB=1, BENCH_VERBOSE=1, BENCH_REFRESH_CHAINS, BENCH_LOGIN_CONCURRENCY.
// `--only web`: only the web measurements (bundles, the first visit on Slow 4G).
// `--only core`: only the ratios of the issue's table: logins ÷ hashes, user-info ÷ hello-world,
// refresh grants per core (RS256 and ES256), idle RSS on PostgreSQL and on PGlite.
// `--only webhooks`: only the webhooks' deliveries per second per core and their delay from commit
// to delivery under 100 changes per second.
// `--only audit-streams`: only the audit streams' lag from an audited change to its collector.
// `--only reads`: only the authenticated reads beside hello-world: throughput and CPU per request.
// `--only memory`: only the memory a minute after a burst of logins, reads, tree rebuilds and
// refresh grants, on PostgreSQL (10k organizations seeded) and on PGlite.
// `--only pglite`: only the PGlite rows of `--only memory` (idle, and a minute after its burst).
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { browserApiCookies, Client, requireExists, sampleLatency, signIn } from './lib/http.mjs';
import { load } from './lib/load.mjs';
import { prepareRefreshTokens, refreshChains } from './lib/oidc.mjs';
import {
  activityPerRequest,
  createBenchDatabase,
  databaseActivity,
  freePort,
  killChildren,
  pgClient,
  runCommand,
  startNode,
} from './lib/processes.mjs';
import { memoryAfterBurst } from './lib/memory.mjs';
import { Report } from './lib/report.mjs';
import { cpuSecondsOf, log, memoryOf, ROOT, round, sleep, Unavailable, withTimeout } from './lib/util.mjs';
import { launch, routeJavaScript, signedInContext, slowVisitMedian, treeFilterTiming } from './lib/web.mjs';
import { deliveryDelay, deliveryThroughput } from './lib/webhooks.mjs';
import { streamDelay } from './lib/audit-streams.mjs';

const QUICK = process.env.BENCH_QUICK === '1';
const CORES = availableParallelism();
const ADMIN_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const ADMIN_EMAIL = 'bench-admin@example.com';
const ADMIN_PASSWORD = 'Bench-Admin-Passw0rd!';
const ORGANIZATIONS = Number(process.env.BENCH_ORGANIZATIONS ?? 10_000);
const MEMBERS_SMALL = Number(process.env.BENCH_MEMBERS ?? 100_000);
const MEMBERS_LARGE = Number(process.env.BENCH_MEMBERS_LARGE ?? 1_000_000);
const LOAD_SECONDS = QUICK ? 4 : 10;
const WARMUP_SECONDS = QUICK ? 1 : 2;
// the organization page's sections, each after a second of warm-up
const SECTION_SECONDS = QUICK ? 2 : 4;
// the reads' CPU per request beside hello-world's: rounds of the three in turn (stepReads)
const CPU_ROUNDS = QUICK ? 1 : 3;
// Both sides of the login ratio at their maximum rate: raw hashes with one in flight per core
// (more only queue), logins with twice as many in flight as cores, so that a login waiting for
// the database or HTTP leaves a hash queued for the core it frees (the portal runs one hash per
// core: apps/server/src/password-hashing.ts). With only one login per core, every such wait leaves a core
// idle: that ratio is reported beside it (login.ratioAtCores).
const HASH_CONCURRENCY = CORES;
const LOGIN_CONCURRENCY = Number(process.env.BENCH_LOGIN_CONCURRENCY ?? 2 * CORES);
const REFRESH_CHAINS = Number(process.env.BENCH_REFRESH_CHAINS ?? 16);
const READ_CONNECTIONS = 50;
// the portal as people run it: the default log level (an access line per request) unless told otherwise
const PORTAL_LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'info';
// memory: the burst's parts each run this long, then the portal idles for SETTLE_SECONDS
const BURST_SECONDS = QUICK ? 4 : 10;
const SETTLE_SECONDS = Number(process.env.BENCH_SETTLE_SECONDS ?? 60);
// webhooks: deliveries queued for the throughput run, and the stream of changes of the delay run
const WEBHOOK_DELIVERIES = Number(process.env.BENCH_WEBHOOK_DELIVERIES ?? (QUICK ? 5000 : 20_000));
const WEBHOOK_CHANGE_RATE = 100;
const DEFAULT_ARGON2 = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 };
// the whole run stays within 15 minutes; BENCH_BUDGET_MINUTES raises it on a machine too busy for the 1M step
const RUN_LIMIT_MS = Number(process.env.BENCH_BUDGET_MINUTES ?? 14) * 60_000;

// `npm run bench -- --only web`: build, start the portal, and run only the web measurements
const ONLY = (() => {
  const i = process.argv.indexOf('--only');
  return i >= 0 ? process.argv[i + 1] : undefined;
})();
const ONLY_MODES = ['web', 'core', 'webhooks', 'audit-streams', 'reads', 'memory', 'pglite'];
if (ONLY && !ONLY_MODES.includes(ONLY)) {
  console.error(`--only ${ONLY}: only ${ONLY_MODES.map((m) => `"${m}"`).join(', ')} can run on their own`);
  process.exit(2);
}

const report = new Report();
const started = Date.now();

// ------------------------------------------------------------------ the table, declared up front
report.declare('argon2.raw', 'argon2id raw hashes/s (@node-rs/argon2)', 'limit (peer)');
report.declare('login.rate', 'password logins/s (email-login + login)', 'info');
report.declare('login.ratio', 'logins/s ÷ raw argon2id hashes/s', '≥ 0.85');
report.declare('login.ratioAtCores', 'same, one login in flight per core', 'info');
report.declare('hello.rps', 'Fastify hello-world rps @50', 'peer');
report.declare('hellodb.rps', 'Fastify + 1 PostgreSQL query rps @50', 'peer');
report.declare('userinfo.rps', 'GET /api/identity/user-info rps @50', 'info');
report.declare('userinfo.ratio', 'user-info rps ÷ hello-world rps', '≥ 0.35');
report.declare('userinfo.p99', 'user-info p99 @50 (ms)', '≤ 25');
report.declare('hello.cpu', 'hello-world CPU per request (µs)', 'peer');
report.declare('userinfo.cpu', 'user-info: portal CPU per request (µs)', 'info');
report.declare('userinfo.cpuRatio', 'hello-world CPU ÷ user-info CPU per request', '≥ 0.35');
report.declare('treeRead.rps', 'GET /api/organizations/tree rps @50 (bootstrap tree)', 'info');
report.declare('treeRead.cpu', 'tree read: portal CPU per request (µs)', 'info');
report.declare('treeRead.cpuRatio', 'hello-world CPU ÷ tree-read CPU per request', '≥ 0.25');
report.declare('orgpage.rps', 'GET /api/organizations/{root} rps @50', 'info');
report.declare('orgpage.p99', 'organization page p99 @50 (ms)', '≤ 25');
/**
 * The organization page's other sections, each read as its section reads it when opened, at 50
 * connections: a row each, so that a new section (or a slower one) shows here. On the bench's root
 * organization (the bootstrap administrator's, a userManager and organizationManager there).
 */
/** a section's own read, at 50 connections of that one read: at most twice the page's target (each is read when opened, after the page) */
const SECTION_P99_MS = 50;
const ORG_PAGE_SECTIONS = [
  ['tree', 'organization tree', '/api/organizations/tree'],
  ['search', 'people search (3 letters)', (id) => `/api/members/search?organizationId=${id}&q=ben`],
  ['secondFactorPolicy', 'second-factor policy', (id) => `/api/organizations/${id}/second-factor-policy`],
  ['supportAccess', 'support access', (id) => `/api/organizations/${id}/support-access`],
  ['connectionPolicy', 'connection policy', (id) => `/api/organizations/${id}/connection-policy`],
  ['domains', 'domains', (id) => `/api/organizations/${id}/domains`],
  ['connections', 'SSO connections', (id) => `/api/organizations/${id}/sso-connections`],
  ['accessRequests', 'access requests', (id) => `/api/organizations/${id}/access-requests`],
  ['setupLinks', 'setup links', (id) => `/api/organizations/${id}/setup-links`],
  ['scimTokens', 'SCIM tokens', (id) => `/api/organizations/${id}/scim-tokens`],
  ['serviceAccounts', 'service accounts', (id) => `/api/organizations/${id}/service-accounts`],
  ['webhooks', 'webhooks', (id) => `/api/organizations/${id}/webhooks`],
  ['auditStreams', 'audit streams', (id) => `/api/organizations/${id}/audit-streams`],
  ['auditTrail', 'audit trail (first page)', (id) => `/api/audit?organizationId=${id}&page=1`],
];
for (const [key, name] of ORG_PAGE_SECTIONS)
  report.declare(`orgpage.${key}`, `organization page, ${name}: p99 @50 (ms)`, `≤ ${SECTION_P99_MS}`);
report.declare('refresh.rate', 'refresh_token grants/s', `≥ ${480 * CORES} (480/core × ${CORES})`);
report.declare('refresh.perCore', 'refresh grants/s per core', '≥ 480');
report.declare('refresh.100k', 'refresh grants/s with 100k users seeded', '≥ 480/core');
report.declare('refresh.es256', 'refresh grants/s per core, client with ES256 ID tokens', '≥ 480');
for (const [tag, members] of [
  ['100k', MEMBERS_SMALL],
  ['1m', MEMBERS_LARGE],
]) {
  const label = members >= 1e6 ? `${members / 1e6}M` : `${members / 1e3}k`;
  report.declare(`seed.${tag}`, `seed:bench ${ORGANIZATIONS / 1000}k orgs, ${label} members (s)`, 'info');
  report.declare(`tree.${tag}`, `GET /api/organizations/tree p50/p95 (ms), ${label}`, 'p95 ≤ 250');
  report.declare(`treeBuild.${tag}`, `same, each right after a change of the tree (ms), ${label}`, 'p95 ≤ 250');
  report.declare(`org.${tag}`, `GET /api/organizations/{id} p50/p95 (ms), ${label}`, 'p95 ≤ 30');
  report.declare(`search.${tag}`, `GET /api/members/search 3-letter p50/p95 (ms), ${label}`, 'p95 ≤ 50');
  report.declare(`answers.${tag}`, `tree and search answers equal a plain SQL scan, ${label}`, 'equal');
}
report.declare('search.growth', 'member search p95 growth 100k → 1M', '≤ 2×');
report.declare('web.login', 'gzipped JS, /login (KB)', '≤ 130');
report.declare('web.loginReady', '/login e-mail field typeable, Slow 4G, median of 5 (ms)', '≤ 1000');
report.declare('web.loginKeystroke', '/login key typed at first paint, held by the hydrated form: after / at (ms)', 'info');
report.declare('web.loginLcp', '/login LCP, Slow 4G, median of 5 (ms)', 'info');
report.declare('web.loginBytes', '/login KB transferred before typeable / until idle', '≤ 60 before');
report.declare('web.invitationReady', '/invitation/{id} in nl, first name typeable, Slow 4G, median of 5 (ms)', 'info');
report.declare('web.invitationKeystroke', '/invitation/{id} in nl, key typed at first paint, held by the form: after / at (ms)', 'info');
report.declare('web.invitationBytes', '/invitation/{id} in nl, KB transferred before typeable / until idle', 'info');
report.declare('web.manage', 'gzipped JS, /manage-organization/{id} (KB)', '≤ 220');
report.declare('web.manageReady', 'manage page heading shown, Slow 4G, median of 5 (ms)', 'info');
report.declare('web.manageLcp', 'manage page LCP, Slow 4G, median of 5 (ms)', 'info');
report.declare('web.manageBytes', 'manage page KB transferred before shown / until idle', 'info');
report.declare('web.filter', 'tree filter per keystroke, 10k nodes p50/p95 (ms)', 'p95 ≤ 50');
report.declare('webhooks.rate', 'webhook deliveries/s per core (queued, 4 receivers)', 'info');
report.declare('webhooks.delay', `webhook delay commit → delivery p50/p99 @${WEBHOOK_CHANGE_RATE} changes/s (ms)`, 'info');
report.declare('auditStreams.delay', `audit stream lag commit → collector p50/p99 @${WEBHOOK_CHANGE_RATE} changes/s (ms)`, 'p99 ≤ 1000');
report.declare('rss.idle', 'server RSS at idle (MB)', '≤ 250');
report.declare('rss.load', 'server RSS after the load (MB)', '≤ 250');
report.declare('rss.peak', 'server peak RSS, VmHWM (MB)', '≤ 250');
report.declare('rss.settled', `server RSS ${SETTLE_SECONDS} s after the load (MB)`, '≤ 250');
report.declare('rss.pglite', 'server RSS at idle on the embedded PGlite (MB)', '≤ 250');
report.declare('rss.pgliteSettled', `same on PGlite, ${SETTLE_SECONDS} s after a burst (MB)`, '≤ 250');

/** Run a step; its rows left pending become unavailable/error with the reason. */
async function step(name, keys, limitMs, fn) {
  log(`— ${name}`);
  const t = Date.now();
  try {
    await withTimeout(fn(), limitMs, name);
  } catch (err) {
    log(`${name}: ${err instanceof Unavailable ? '' : 'ERROR '}${err.message.split('\n')[0]}`);
    if (!(err instanceof Unavailable) && process.env.BENCH_VERBOSE) console.error(err);
    report.settle(keys, err);
  }
  report.detail(`time.${name}`, round((Date.now() - t) / 1000));
  // the portal's memory after every step, to see which one grows it
  if (portal?.child.exitCode === null) report.detail(`memory.after ${name}`, memoryOf(portal.pid, readFileSync));
}

/** Run a measured load and record the database round trips per request (pg_stat_database). */
async function measured(name, fn, requestsOf = (r) => r.ok) {
  const before = await databaseActivity(db.url, db.name);
  const r = await fn();
  const after = await databaseActivity(db.url, db.name);
  const perRequest = activityPerRequest(before, after, requestsOf(r));
  report.detail(`${name}.database`, perRequest);
  return { ...r, db: perRequest };
}

// ------------------------------------------------------------------------------- build
let db;
let portal;
let hello;
let browser;
let keepDb = process.env.BENCH_KEEP_DB === '1';

async function cleanup() {
  await browser?.close().catch(() => undefined);
  await hello?.stop().catch(() => undefined);
  await portal?.stop().catch(() => undefined);
  killChildren();
  if (db && !keepDb) await db.drop().catch((err) => log(`could not drop ${db.name}: ${err.message}`));
  else if (db) log(`database kept: ${db.url}`);
  if (process.env.BENCH_KEEP_LOGS === '1') log(`the portals' logs are kept in ${LOG_DIR}`);
  else rmSync(LOG_DIR, { recursive: true, force: true });
}

let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    if (interrupted) process.exit(130);
    interrupted = true;
    log(`${signal}: cleaning up`);
    void cleanup().finally(() => process.exit(130));
  });
}

async function build() {
  if (process.env.BENCH_SKIP_BUILD === '1') {
    report.note('build skipped (BENCH_SKIP_BUILD=1)');
    return;
  }
  log('building the server (tsc -b) and the web app (vite)');
  const server = await runCommand('npx', ['tsc', '-b', 'apps/server/tsconfig.build.json'], { timeoutMs: 240_000, label: 'tsc' });
  if (server.code !== 0) {
    const msg = `server build failed (${server.code}); measuring the last emitted apps/server/dist`;
    log(`${msg}\n${server.tail}`);
    report.note(`${msg}: ${server.tail.split('\n')[0]}`);
  }
  const web = await runCommand('npm', ['run', 'build', '-w', '@partner-portal/web'], { timeoutMs: 240_000, label: 'vite' });
  if (web.code !== 0) {
    log(`web build failed (${web.code})\n${web.tail}`);
    report.note(`web build failed (${web.code}); measuring the last apps/web/dist`);
  }
  report.detail('buildSeconds', { server: round(server.ms / 1000), web: round(web.ms / 1000) });
  if (!existsSync(`${ROOT}apps/server/dist/main.js`)) throw new Error('apps/server/dist/main.js is missing: the server did not build');
}

// ------------------------------------------------------------------------------- steps
/** Where the portals' output goes (bench/lib/processes.mjs, startNode); removed at the end. */
const LOG_DIR = mkdtempSync(join(tmpdir(), 'pp-bench-logs-'));

async function startPortal(extraEnv = {}) {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const dcrToken = randomBytes(24).toString('base64url');
  const env = {
    NODE_ENV: process.env.BENCH_NODE_ENV ?? 'production',
    DATABASE_URL: db.url,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: baseUrl,
    BOOTSTRAP_ADMIN_EMAIL: ADMIN_EMAIL,
    BOOTSTRAP_ADMIN_PASSWORD: ADMIN_PASSWORD,
    DCR_INITIAL_ACCESS_TOKEN: dcrToken,
    OIDC_SIGNING_ALGS: 'RS256,ES256',
    RATE_LIMIT_MAX: '1000000000',
    RATE_LIMIT_SESSION_MAX: '1000000000',
    LOGIN_RATE_LIMIT_PER_ACCOUNT: '1000000000',
    LOGIN_RATE_LIMIT_PER_IP: '1000000000',
    LOG_LEVEL: PORTAL_LOG_LEVEL,
    // the webhooks' receivers run in the bench process, on 127.0.0.1
    OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true',
    // nothing external: no SMTP (outbox), no Redis, no upstream identity provider
    SMTP_URL: '',
    REDIS_URL: '',
    EXTERNAL_IDP_ISSUER: '',
    EXTERNAL_IDP_CLIENT_ID: '',
    ...extraEnv,
  };
  // BENCH_PORTAL_NODE_ARGS: node flags for the portal only, for diagnosis (e.g. --trace-gc with BENCH_VERBOSE=1)
  const nodeArgs = (process.env.BENCH_PORTAL_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const started = await startNode('apps/server/dist/main.js', {
    env,
    nodeArgs,
    readyUrl: `${baseUrl}/health`,
    timeoutMs: 90_000,
    label: 'portal',
    logFile: join(LOG_DIR, 'portal.log'),
  });
  log(`portal pid ${started.pid} on ${baseUrl}`);
  return { ...started, baseUrl, dcrToken, env };
}

async function rootOrganization() {
  const c = await pgClient(db.url);
  try {
    const { rows } = await c.query('SELECT id, path FROM organizations WHERE parent_id IS NULL LIMIT 1');
    const hashRow = await c.query('SELECT password_hash FROM users WHERE lower(email) = lower($1)', [ADMIN_EMAIL]);
    return { id: rows[0]?.id, path: rows[0]?.path, passwordHash: hashRow.rows[0]?.password_hash ?? '' };
  } finally {
    await c.end();
  }
}

/** Argon2 options of the server build (ARGON2_OPTIONS), else the documented defaults. */
async function argon2Options() {
  try {
    const mod = await import(`${ROOT}apps/server/dist/passwords.js`);
    if (mod.ARGON2_OPTIONS) return { ...mod.ARGON2_OPTIONS };
  } catch {
    /* fall through */
  }
  return DEFAULT_ARGON2;
}

async function stepLogins() {
  const options = await argon2Options();
  const stored = /\$m=(\d+),t=(\d+),p=(\d+)\$/.exec(rootInfo.passwordHash);
  if (
    stored &&
    (Number(stored[1]) !== options.memoryCost || Number(stored[2]) !== options.timeCost || Number(stored[3]) !== options.parallelism)
  ) {
    report.note(`the stored admin hash uses m=${stored[1]},t=${stored[2]},p=${stored[3]}, not ARGON2_OPTIONS`);
  }
  report.detail('argon2', { options, storedHashParameters: stored?.slice(1).join(',') ?? null, concurrency: HASH_CONCURRENCY });
  const raw = await runCommand(
    process.execPath,
    ['bench/argon2-rate.mjs', String(HASH_CONCURRENCY), String(LOAD_SECONDS), JSON.stringify(options)],
    {
      timeoutMs: (LOAD_SECONDS + 30) * 1000,
      label: 'argon2',
    },
  );
  if (raw.code !== 0) throw new Error(`argon2-rate: ${raw.tail}`);
  const rawResult = JSON.parse(raw.tail.split('\n').pop());
  report.detail('argon2.raw', rawResult);
  report.set('argon2.raw', round(rawResult.perSecond, 1), undefined, `concurrency ${HASH_CONCURRENCY}`);

  // probe: does the two-step login exist and work?
  await signIn(new Client(portal.baseUrl), ADMIN_EMAIL, ADMIN_PASSWORD);
  const headers = { 'content-type': 'application/json', 'x-csrf': '1' };
  const requests = [
    { method: 'POST', path: '/api/identity/email-login', headers, body: JSON.stringify({ email: ADMIN_EMAIL }) },
    {
      method: 'POST',
      path: '/api/identity/login',
      headers,
      body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD, remember: false }),
    },
  ];
  await load({ url: portal.baseUrl, connections: LOGIN_CONCURRENCY, durationSeconds: WARMUP_SECONDS, requests });
  const r = await measured(
    'login',
    () => load({ url: portal.baseUrl, connections: LOGIN_CONCURRENCY, durationSeconds: LOAD_SECONDS, requests }),
    (x) => x.ok / 2,
  );
  report.detail('login.load', r);
  const loginsPerSecond = round(r.ok / 2 / r.durationSeconds, 1);
  const ratio = round(loginsPerSecond / rawResult.perSecond, 2);
  const errs = r.non2xx || r.errors ? `${r.non2xx} non-2xx, ${r.errors} errors` : '';
  report.set(
    'login.rate',
    loginsPerSecond,
    undefined,
    `concurrency ${LOGIN_CONCURRENCY}; p50 ${r.p50} ms/request; ≈${r.db.xacts} db statements/login${errs ? `; ${errs}` : ''}`,
  );
  report.set('login.ratio', ratio, ratio >= 0.85 && !r.non2xx, errs);
  if (LOGIN_CONCURRENCY !== HASH_CONCURRENCY) {
    const c = await load({ url: portal.baseUrl, connections: HASH_CONCURRENCY, durationSeconds: LOAD_SECONDS, requests });
    report.detail('login.loadAtCores', c);
    const atCores = round(c.ok / 2 / c.durationSeconds, 1);
    report.set(
      'login.ratioAtCores',
      round(atCores / rawResult.perSecond, 2),
      undefined,
      `${atCores} logins/s at concurrency ${HASH_CONCURRENCY}`,
    );
  }
}

/**
 * A load run with the CPU it cost the serving process: user + system time from /proc/<pid>/stat
 * before and after, divided by the requests answered (µs per request).
 */
async function withCpu(pid, run) {
  const before = cpuSecondsOf(pid, readFileSync);
  const r = await run();
  const seconds = cpuSecondsOf(pid, readFileSync) - before;
  return { ...r, cpuSeconds: round(seconds, 2), cpuUsPerRequest: round((seconds * 1e6) / Math.max(1, r.total), 1) };
}

async function stepReads() {
  const port = await freePort();
  hello = await startNode('bench/hello.mjs', { args: [String(port), db.url], readyUrl: `http://127.0.0.1:${port}/`, label: 'hello' });
  const helloUrl = `http://127.0.0.1:${port}/`;
  // a second peer: the same plus one PostgreSQL round trip, what user-info needs at least
  await load({ url: `http://127.0.0.1:${port}/db`, connections: READ_CONNECTIONS, durationSeconds: WARMUP_SECONDS });
  const hd = await load({ url: `http://127.0.0.1:${port}/db`, connections: READ_CONNECTIONS, durationSeconds: LOAD_SECONDS });
  report.detail('hellodb.load', hd);

  const client = new Client(portal.baseUrl);
  await signIn(client, ADMIN_EMAIL, ADMIN_PASSWORD);
  const headers = { cookie: browserApiCookies(client), 'x-csrf': '1' };
  const probe = await client.get('/api/identity/user-info');
  requireExists(probe, 'GET /api/identity/user-info');
  if (probe.status !== 200) throw new Error(`user-info: ${probe.status}`);
  // the organization tree as its administrator reads it (the bootstrap tree: the root alone; the
  // tree at scale is measured by the scale steps), from the tree cache after the first request
  const treeUrl = `${portal.baseUrl}/api/organizations/tree`;
  const treeProbe = await client.get('/api/organizations/tree');
  requireExists(treeProbe, 'GET /api/organizations/tree');
  if (treeProbe.status !== 200) throw new Error(`tree: ${treeProbe.status}`);

  // CPU per request: hello-world, user-info and the tree in turns, CPU_ROUNDS times, each run after
  // its own warm-up; a ratio is taken within a round and the median round's is reported. The CPU a
  // request costs on a shared machine drifts by ±15 % from one ten-second run to the next (the same
  // loop timed twice), so a peer measured once, minutes apart from the portal, made the ratio a draw.
  const warmed = async (pid, url, h = {}) => {
    await load({ url, connections: READ_CONNECTIONS, durationSeconds: WARMUP_SECONDS, headers: h });
    return withCpu(pid, () => load({ url, connections: READ_CONNECTIONS, durationSeconds: LOAD_SECONDS, headers: h }));
  };
  const rounds = [];
  for (let i = 0; i < CPU_ROUNDS; i++) {
    const h = await warmed(hello.pid, helloUrl);
    const u = await measured('userinfo', () => warmed(portal.pid, `${portal.baseUrl}/api/identity/user-info`, headers));
    const t = await measured('treeRead', () => warmed(portal.pid, treeUrl, headers));
    rounds.push({ h, u, t, userinfo: h.cpuUsPerRequest / u.cpuUsPerRequest, tree: h.cpuUsPerRequest / t.cpuUsPerRequest });
  }
  await hello.stop();
  hello = undefined;
  const medianRound = (key) => [...rounds].sort((a, b) => a[key] - b[key])[Math.floor(rounds.length / 2)];
  const each = (key) => rounds.map((r) => round(r[key], 2)).join(', ');
  report.detail(
    'reads.rounds',
    rounds.map(({ h, u, t }) => ({ hello: h, userinfo: u, tree: t })),
  );
  report.note(`hello-world CPU ÷ the read's CPU per request, round by round: user-info ${each('userinfo')}; tree ${each('tree')}`);

  const { h, u } = medianRound('userinfo');
  report.set('hello.rps', h.rps, undefined, `p99 ${h.p99} ms`);
  report.set('hello.cpu', h.cpuUsPerRequest, undefined, `${h.cpuSeconds} s of CPU for ${h.total} requests`);
  report.set('hellodb.rps', hd.rps, undefined, `${round(hd.rps / h.rps, 2)} × hello-world; p99 ${hd.p99} ms`);
  const ratio = round(u.rps / h.rps, 2);
  const bad = u.non2xx ? ` (${u.non2xx} non-2xx: ${JSON.stringify(u.statuses)})` : '';
  report.set(
    'userinfo.rps',
    u.rps,
    undefined,
    `${round(u.rps / hd.rps, 2)} × Fastify+1 query; p50 ${u.p50} ms; ≈${u.db.xacts} db statements/request${bad}`,
  );
  report.set('userinfo.ratio', ratio, ratio >= 0.35 && !u.non2xx, bad);
  report.set('userinfo.p99', u.p99, u.p99 <= 25);
  report.set(
    'userinfo.cpu',
    u.cpuUsPerRequest,
    undefined,
    `${u.cpuSeconds} s of the portal's CPU for ${u.total} requests; log level ${PORTAL_LOG_LEVEL}`,
  );
  const userinfoCpuRatio = round(h.cpuUsPerRequest / u.cpuUsPerRequest, 2);
  report.set(
    'userinfo.cpuRatio',
    userinfoCpuRatio,
    userinfoCpuRatio >= 0.35 && !rounds.some((r) => r.u.non2xx),
    `${round(u.cpuUsPerRequest / h.cpuUsPerRequest, 1)} × hello-world's CPU (median of ${CPU_ROUNDS}; rounds: ${each('userinfo')})`,
  );

  const { h: ht, t } = medianRound('tree');
  const treeBad = t.non2xx ? ` (${t.non2xx} non-2xx: ${JSON.stringify(t.statuses)})` : '';
  report.set(
    'treeRead.rps',
    t.rps,
    undefined,
    `${round(t.rps / ht.rps, 2)} × hello-world; p50 ${t.p50} ms, p99 ${t.p99} ms; ≈${t.db.xacts} db statements/request${treeBad}`,
  );
  report.set('treeRead.cpu', t.cpuUsPerRequest, undefined, `${t.cpuSeconds} s of the portal's CPU for ${t.total} requests`);
  const treeCpuRatio = round(ht.cpuUsPerRequest / t.cpuUsPerRequest, 2);
  report.set(
    'treeRead.cpuRatio',
    treeCpuRatio,
    treeCpuRatio >= 0.25 && !rounds.some((r) => r.t.non2xx),
    `${round(t.cpuUsPerRequest / ht.cpuUsPerRequest, 1)} × hello-world's CPU (median of ${CPU_ROUNDS}; rounds: ${each('tree')})${treeBad}`,
  );

  const orgProbe = await client.get(`/api/organizations/${rootInfo.id}`);
  requireExists(orgProbe, 'GET /api/organizations/{id}');
  if (orgProbe.status !== 200) throw new Error(`organization page: ${orgProbe.status}`);
  const url = `${portal.baseUrl}/api/organizations/${rootInfo.id}`;
  await load({ url, connections: READ_CONNECTIONS, durationSeconds: WARMUP_SECONDS, headers });
  const o = await measured('orgpage', () => load({ url, connections: READ_CONNECTIONS, durationSeconds: LOAD_SECONDS, headers }));
  report.detail('orgpage.load', o);
  report.set(
    'orgpage.rps',
    o.rps,
    undefined,
    `${round(o.rps / h.rps, 2)} × hello-world; p50 ${o.p50} ms; ≈${o.db.xacts} db statements/request${o.non2xx ? `; ${o.non2xx} non-2xx` : ''}`,
  );
  report.set('orgpage.p99', o.p99, o.p99 <= 25 && !o.non2xx);

  // each section of the page, as it reads when opened: a short warm-up, then a shorter load than the page's own
  for (const [key, , path] of ORG_PAGE_SECTIONS) {
    const sectionUrl = `${portal.baseUrl}${typeof path === 'string' ? path : path(rootInfo.id)}`;
    const sectionProbe = await client.get(sectionUrl);
    if (sectionProbe.status !== 200) {
      report.set(`orgpage.${key}`, 'error', false, `${sectionProbe.status}: ${JSON.stringify(sectionProbe.body).slice(0, 200)}`);
      continue;
    }
    await load({ url: sectionUrl, connections: READ_CONNECTIONS, durationSeconds: 1, headers });
    const r = await measured(`orgpage.${key}`, () =>
      load({ url: sectionUrl, connections: READ_CONNECTIONS, durationSeconds: SECTION_SECONDS, headers }),
    );
    const bad = r.non2xx ? `; ${r.non2xx} non-2xx: ${JSON.stringify(r.statuses)}` : '';
    report.set(
      `orgpage.${key}`,
      r.p99,
      r.p99 <= 25 && !r.non2xx,
      `${r.rps} rps, p50 ${r.p50} ms; ≈${r.db.xacts} db statements/request${bad}`,
    );
  }
}

/**
 * Refresh grants/s. Run on the empty database (the target), and again once the seed has put
 * 100k users in the users table (the provider looks the account up on every grant).
 */
async function stepRefresh(tag = '') {
  const prepare = () =>
    prepareRefreshTokens({
      baseUrl: portal.baseUrl,
      dcrToken: portal.dcrToken,
      email: ADMIN_EMAIL,
      password: ADMIN_PASSWORD,
      chains: REFRESH_CHAINS,
      ...(tag === '.es256' ? { clientMetadata: { id_token_signed_response_alg: 'ES256' } } : {}),
    });
  const seconds = tag ? Math.min(LOAD_SECONDS, 5) : LOAD_SECONDS;
  if (!tag) {
    // warm-up on chains of its own (tokens rotate, so the measured run gets fresh ones)
    const warm = await prepare();
    const w = await refreshChains(portal.baseUrl, warm.meta, warm.registered, warm.tokens, WARMUP_SECONDS);
    if (w.errors) throw new Error(`refresh grants fail: ${w.errorSamples.join(' | ')}`);
  }
  const fresh = await prepare();
  const cpuBefore = cpuSecondsOf(portal.pid, readFileSync);
  const r = await measured(
    `refresh${tag}`,
    () => refreshChains(portal.baseUrl, fresh.meta, fresh.registered, fresh.tokens, seconds),
    (x) => x.grants,
  );
  // the portal's own CPU per grant (Keycloak's sizing counts the server's vCPUs only; the
  // row's target counts the machine's cores, which PostgreSQL and the load generator share)
  const portalCpuMs = round(((cpuSecondsOf(portal.pid, readFileSync) - cpuBefore) * 1000) / Math.max(1, r.grants), 2);
  report.detail(`refresh${tag}`, { ...r, chains: REFRESH_CHAINS, portalCpuMsPerGrant: portalCpuMs });
  const perCore = round(r.grantsPerSecond / CORES, 1);
  const errs = r.errors ? `; ${r.errors} broken chains: ${r.errorSamples[0]}` : '';
  const note = `${REFRESH_CHAINS} chains; p50 ${r.p50} ms, p99 ${r.p99} ms; ≈${r.db.xacts} db statements/grant; portal CPU ${portalCpuMs} ms/grant (${round(1000 / portalCpuMs, 0)} per core of the portal)${errs}`;
  if (tag === '.es256') {
    report.set('refresh.es256', perCore, perCore >= 480 && !r.errors, `${r.grantsPerSecond}/s; ${note}`);
  } else if (tag) {
    report.set(`refresh${tag}`, `${r.grantsPerSecond} (${perCore}/core)`, perCore >= 480 && !r.errors, note);
  } else {
    report.set('refresh.rate', r.grantsPerSecond, r.grantsPerSecond >= 480 * CORES && !r.errors, note);
    report.set('refresh.perCore', perCore, perCore >= 480 && !r.errors);
  }
}

// ---------------------------------------------------------------- scale
const scale = {};

async function seed(tag, members, limitMs) {
  const script = `${ROOT}apps/server/dist/cli/seed-bench.js`;
  if (!existsSync(script)) throw new Unavailable('unavailable (no apps/server/dist/cli/seed-bench.js yet)');
  log(`seeding ${ORGANIZATIONS} organizations, ${members} members (limit ${round(limitMs / 60_000)} min)`);
  // the same program as `npm run seed:bench -- …`, without its rebuild (the bench built already)
  const r = await runCommand(process.execPath, [script, '--organizations', String(ORGANIZATIONS), '--members', String(members)], {
    env: portal.env,
    timeoutMs: limitMs,
    label: 'seed',
  });
  if (r.code !== 0) {
    const progress = /members: (\d+) \/ (\d+)/.exec(
      r.tail
        .split('\n')
        .reverse()
        .find((l) => /members: \d+ \//.test(l)) ?? '',
    );
    const how = typeof r.code === 'string' ? `not finished in ${round(r.ms / 1000)} s of the time budget` : `exited ${r.code}`;
    throw new Error(
      `seed:bench ${how}${progress ? ` (${progress[1]} of ${progress[2]} members loaded)` : ''}: ${r.tail.split('\n').slice(-2).join(' / ')}`,
    );
  }
  const c = await pgClient(db.url);
  try {
    await c.query('SET statement_timeout = 300000');
    const t = Date.now();
    // steady state: a production database has been vacuumed and analysed after a bulk load
    await c.query('VACUUM ANALYZE');
    // and its bulk load is on disk: otherwise the checkpoint of ~1 GB of WAL runs during the measurements
    await c.query('CHECKPOINT').catch(() => undefined);
    const counts = (
      await c.query('SELECT (SELECT count(*)::int FROM organizations) AS organizations, (SELECT count(*)::int FROM memberships) AS members')
    ).rows[0];
    report.detail(`seed.${tag}`, { seconds: round(r.ms / 1000), vacuumAnalyzeSeconds: round((Date.now() - t) / 1000), ...counts });
    report.set(
      `seed.${tag}`,
      round(r.ms / 1000),
      undefined,
      `${counts.organizations} organizations, ${counts.members} members in the database`,
    );
    scale.counts = counts;
  } finally {
    await c.end();
  }
}

/** A fixed pseudo-random generator, so every run samples the same way. */
function prng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

async function pickSamples() {
  const c = await pgClient(db.url);
  try {
    const orgs = (await c.query('SELECT id FROM organizations ORDER BY md5(id::text) LIMIT 200')).rows.map((r) => r.id);
    const emails = (await c.query('SELECT email FROM memberships ORDER BY md5(id::text) LIMIT 400')).rows.map((r) => r.email.toLowerCase());
    const rand = prng(42);
    const substrings = new Set();
    for (const email of emails) {
      // a substring of one word of the local part (first.last123 → "first" or "last")
      const words = email
        .split('@')[0]
        .split(/[^a-z]+/)
        .filter((w) => w.length >= 3);
      if (!words.length) continue;
      const word = words[Math.floor(rand() * words.length)];
      const i = Math.floor(rand() * (word.length - 2));
      substrings.add(word.slice(i, i + 3));
      if (substrings.size >= 12) break;
    }
    const names = (await c.query('SELECT name FROM organizations WHERE parent_id IS NOT NULL ORDER BY md5(id::text) LIMIT 20')).rows.map(
      (r) => r.name,
    );
    return { orgs: [rootInfo.id, ...orgs], substrings: [...substrings], orgNames: names };
  } finally {
    await c.end();
  }
}

async function searchMatchCounts(substrings) {
  const c = await pgClient(db.url);
  try {
    await c.query('SET statement_timeout = 20000');
    const out = {};
    for (const q of substrings) {
      out[q] = (await c.query("SELECT count(*)::int AS n FROM memberships WHERE lower(email) LIKE '%' || $1 || '%'", [q])).rows[0].n;
    }
    return out;
  } catch {
    return null;
  } finally {
    await c.end();
  }
}

/**
 * Correctness at scale: the root administrator's tree holds every organization once with
 * member counts that add up to every membership, and each sampled search answers the exact total and
 * first page that a plain scan of memberships gives (case-insensitive substring, organization path
 * then e-mail order). Totals are exact up to 1,000; beyond that the answer must say total_capped.
 */
async function checkAnswers(tag, client, substrings) {
  const problems = [];
  const tree = await client.get('/api/organizations/tree');
  if (tree.status !== 200) throw new Error(`tree answered ${tree.status}`);
  const ids = new Set();
  let members = 0;
  let nodes = 0;
  const visit = (node) => {
    nodes++;
    ids.add(node.key);
    members += node.members;
    for (const child of node.children ?? []) visit(child);
  };
  visit(tree.body);
  if (nodes !== scale.counts.organizations || ids.size !== nodes)
    problems.push(`tree has ${nodes} nodes (${ids.size} distinct) for ${scale.counts.organizations} organizations`);
  if (members !== scale.counts.members) problems.push(`tree counts ${members} members for ${scale.counts.members}`);
  const c = await pgClient(db.url);
  try {
    await c.query('SET statement_timeout = 60000');
    for (const q of substrings.slice(0, 4)) {
      const expected = await c.query(
        `SELECT lower(email) AS email FROM memberships WHERE position($1 in lower(email)) > 0 ORDER BY organization_path, lower(email) LIMIT 50`,
        [q],
      );
      const total = (await c.query('SELECT count(*)::int AS n FROM memberships WHERE position($1 in lower(email)) > 0', [q])).rows[0].n;
      const res = await client.get(
        `/api/members/search?organizationId=${rootInfo.id}&q=${encodeURIComponent(q.toUpperCase())}&pageSize=50`,
      );
      if (res.status !== 200) {
        problems.push(`search ${q} answered ${res.status}`);
        continue;
      }
      const got = res.body.members.map((m) => m.email_address.toLowerCase());
      if (JSON.stringify(got) !== JSON.stringify(expected.rows.map((r) => r.email)))
        problems.push(`search ${q}: first page differs from the scan`);
      const totalOk = res.body.total_capped ? total > res.body.total : total === res.body.total;
      if (!totalOk) problems.push(`search ${q}: total ${res.body.total}${res.body.total_capped ? ' (capped)' : ''}, scan ${total}`);
    }
  } finally {
    await c.end();
  }
  report.set(
    `answers.${tag}`,
    problems.length ? 'differ' : 'equal',
    problems.length === 0,
    problems.length ? problems.join('; ') : `${nodes} nodes, ${members} members, 4 searches`,
  );
}

async function measureScale(tag) {
  const client = new Client(portal.baseUrl);
  await signIn(client, ADMIN_EMAIL, ADMIN_PASSWORD);
  const headers = { cookie: browserApiCookies(client) };
  if (!scale.samples) scale.samples = await pickSamples();
  const { orgs, substrings } = scale.samples;
  const results = {};
  const measure = async (key, label, pathFor, count, limit, before) => {
    try {
      const { times, startedAt, ...r } = await sampleLatency(portal.baseUrl, pathFor, {
        count,
        maxMs: (QUICK ? 20 : 45) * 1000,
        headers,
        before,
      });
      results[key] = r;
      // the slow tail, request by request: which path, and when in the series (clusters point at
      // the process or the machine, one path at its query)
      r.slowest = times
        .map((ms, i) => ({ ms, i, at: startedAt[i], path: pathFor(i).replace(/organizationId=[^&]+&/, '') }))
        .sort((a, b) => b.ms - a.ms)
        .slice(0, Math.max(3, Math.ceil(times.length * 0.05)));
      const errs = Object.entries(r.statuses).filter(([s]) => s !== '200');
      const note = `n=${r.n}, max ${r.max} ms, ~${Math.round(r.avgBytes / 1024)} KB${errs.length ? `; statuses ${JSON.stringify(r.statuses)}` : ''}`;
      report.set(`${key}.${tag}`, `${r.p50} / ${r.p95}`, r.p95 <= limit && !errs.length, note);
    } catch (err) {
      report.settle([`${key}.${tag}`], err);
      log(`${label}: ${err.message}`);
    }
  };
  await measure('tree', 'tree', () => '/api/organizations/tree', QUICK ? 8 : 25, 250);
  // the portal caches the serialized tree until the tree changes: also measure it built afresh,
  // after a real change (a no-op rename of the root, which records a change like any other)
  const c = await pgClient(db.url);
  try {
    const change = () => c.query('UPDATE organizations SET name = name WHERE id = $1', [rootInfo.id]);
    await measure('treeBuild', 'tree after a change', () => '/api/organizations/tree', QUICK ? 5 : 12, 250, change);
  } finally {
    await c.end();
  }
  await measure('org', 'organization page', (i) => `/api/organizations/${orgs[i % orgs.length]}`, QUICK ? 100 : 300, 30);
  await measure(
    'search',
    'member search',
    (i) => `/api/members/search?organizationId=${rootInfo.id}&q=${substrings[i % substrings.length]}`,
    QUICK ? 100 : 300,
    50,
  );
  results.searchMatches = await searchMatchCounts(substrings);
  try {
    await checkAnswers(tag, client, substrings);
  } catch (err) {
    report.settle([`answers.${tag}`], err);
  }
  report.detail(`scale.${tag}`, results);
  scale[tag] = results;
}

/**
 * The path and query of a new pending invitation to the root organization in `language` (created
 * by the signed-in administrator's context; its link read from the outbox, as the bench portal
 * sends no e-mail). Every visit of it stays a visit of a pending invitation: nobody accepts it.
 */
async function invitationLink(context, language) {
  const email = `bench-invitee-${randomBytes(4).toString('hex')}@example.com`;
  const res = await context.request.post(`/api/organizations/${rootInfo.id}/invitations`, {
    headers: { 'x-csrf': '1', 'content-type': 'application/json' },
    data: { email_address: email, language_code: language },
  });
  if (res.status() !== 201 && res.status() !== 200) throw new Error(`invitation: ${res.status()} ${await res.text()}`);
  const c = await pgClient(db.url);
  try {
    for (let i = 0; i < 50; i++) {
      const { rows } = await c.query(
        "SELECT payload->>'text_body' AS text_body FROM outbox WHERE recipient = $1 ORDER BY created_at DESC LIMIT 1",
        [email],
      );
      const link = /https?:\/\/[^\s]+\/invitation\/[^\s]+/.exec(rows[0]?.text_body ?? '')?.[0];
      if (link) return new URL(link).pathname + new URL(link).search;
      await sleep(100);
    }
  } finally {
    await c.end();
  }
  throw new Error(`no invitation link in the outbox for ${email}`);
}

async function stepWeb() {
  browser = await launch();
  const anonymous = await browser.newContext({ baseURL: portal.baseUrl });
  const login = await routeJavaScript(anonymous, '/login');
  await login.page.close();
  report.detail('web.login', login);
  report.set(
    'web.login',
    login.gzipKb,
    login.gzipKb <= 130,
    `${login.files.length} files, ${login.rawKb} KB raw; largest ${login.files[0]?.file} ${round((login.files[0]?.gzip ?? 0) / 1024)} KB`,
  );
  await anonymous.close();

  const context = await signedInContext(browser, portal.baseUrl, ADMIN_EMAIL, ADMIN_PASSWORD);
  const path = `/manage-organization/${rootInfo.id}`;
  const manage = await routeJavaScript(context, path, {
    settle: (page) => page.waitForSelector('[role=tree]', { timeout: 30_000, state: 'attached' }).catch(() => undefined),
  });
  report.detail('web.manage', { ...manage, page: undefined });
  const wrongPage = manage.finalPath !== path ? ` (ended on ${manage.finalPath})` : '';
  report.set(
    'web.manage',
    manage.gzipKb,
    manage.gzipKb <= 220 && !wrongPage,
    `${manage.files.length} files, ${manage.rawKb} KB raw${wrongPage}`,
  );
  const storageState = await context.storageState();

  const orgCount = scale.counts?.organizations ?? 0;
  if (orgCount < ORGANIZATIONS) {
    report.mark('web.filter', 'unavailable', `needs the seeded tree (${orgCount} organizations)`);
  } else {
    // the last four characters of an organization's name: the first keystroke matches many
    // organizations, each further one fewer (a prefix every name shares would not filter at all)
    const names = (scale.samples?.orgNames ?? []).map((n) => n.trim()).filter((n) => n.length >= 4);
    const word = (names[0] ?? 'dealer').slice(-4).toLowerCase();
    try {
      const t = await treeFilterTiming(manage.page, word, QUICK ? 1 : 2);
      report.detail('web.filter', t);
      report.set(
        'web.filter',
        `${t.p50} / ${t.p95}`,
        t.p95 <= 50,
        `${t.keystrokes} keystrokes of "${word}" and back; max ${t.max} ms; ${orgCount} organizations`,
      );
    } catch (err) {
      report.settle(['web.filter'], err);
    }
  }

  // a first visit on a farm's mobile connection (Lighthouse's Slow 4G, CPU 4× slower, cold cache):
  // the login page (pre-rendered, docs/decisions/021-pre-rendered-public-pages.md), and an invitation in Dutch
  try {
    const slow = await slowVisitMedian(browser, portal.baseUrl, '/login', { readySelector: 'input[name=email]', keystroke: true });
    report.detail('web.loginSlow', slow);
    const encodings = [...new Set(slow.median.files.map((f) => f.encoding))].join(', ');
    report.set(
      'web.loginReady',
      slow.readyMs,
      slow.readyMs <= 1000,
      `runs ${slow.runs.map((r) => r.readyMs).join(', ')}; load average ${slow.loadAverage.join(' → ')}`,
    );
    report.set(
      'web.loginKeystroke',
      `${slow.keystrokeMs} / ${slow.keystrokeSeenMs}`,
      undefined,
      `runs ${slow.runs.map((r) => r.keystrokeMs).join(', ')}`,
    );
    report.set('web.loginLcp', slow.lcpMs, undefined);
    report.set(
      'web.loginBytes',
      `${slow.kbBeforeReady} / ${slow.kbTotal}`,
      slow.kbBeforeReady <= 60,
      `${slow.median.filesBeforeReady.length} responses before typeable (${slow.median.filesBeforeReady.join(', ')}); Content-Encoding: ${encodings}`,
    );
  } catch (err) {
    report.settle(['web.loginReady', 'web.loginKeystroke', 'web.loginLcp', 'web.loginBytes'], err);
  }
  try {
    const link = await invitationLink(context, 'nl');
    const slow = await slowVisitMedian(browser, portal.baseUrl, link, {
      readySelector: 'input[name=first_name]',
      keystroke: true,
      locale: 'nl-NL',
    });
    report.detail('web.invitationSlow', slow);
    report.set(
      'web.invitationReady',
      slow.readyMs,
      undefined,
      `runs ${slow.runs.map((r) => r.readyMs).join(', ')}; load average ${slow.loadAverage.join(' → ')}`,
    );
    report.set(
      'web.invitationKeystroke',
      `${slow.keystrokeMs} / ${slow.keystrokeSeenMs}`,
      undefined,
      `runs ${slow.runs.map((r) => r.keystrokeMs).join(', ')}`,
    );
    report.set(
      'web.invitationBytes',
      `${slow.kbBeforeReady} / ${slow.kbTotal}`,
      undefined,
      `${slow.median.filesBeforeReady.length} responses before typeable`,
    );
  } catch (err) {
    report.settle(['web.invitationReady', 'web.invitationKeystroke', 'web.invitationBytes'], err);
  }
  try {
    const slow = await slowVisitMedian(browser, portal.baseUrl, path, { readySelector: 'main h1', storageState });
    report.detail('web.manageSlow', slow);
    const wrong = slow.median.finalPath !== path ? ` (ended on ${slow.median.finalPath})` : '';
    report.set(
      'web.manageReady',
      slow.readyMs,
      wrong ? false : undefined,
      `runs ${slow.runs.map((r) => r.readyMs).join(', ')}; load average ${slow.loadAverage.join(' → ')}${wrong}`,
    );
    report.set('web.manageLcp', slow.lcpMs, undefined);
    report.set(
      'web.manageBytes',
      `${slow.kbBeforeReady} / ${slow.kbTotal}`,
      undefined,
      `${slow.median.filesBeforeReady.length} responses before typeable`,
    );
  } catch (err) {
    report.settle(['web.manageReady', 'web.manageLcp', 'web.manageBytes'], err);
  }
  await context.close();
  await browser.close();
  browser = undefined;
}

const WEBHOOK_KEYS = ['webhooks.rate', 'webhooks.delay'];

/** Webhooks: deliveries per second per core (a queue drained), and the delay from commit to delivery under a stream of changes. */
async function stepWebhooks() {
  const client = new Client(portal.baseUrl);
  const adminCookie = await signIn(client, ADMIN_EMAIL, ADMIN_PASSWORD);
  const common = { baseUrl: portal.baseUrl, adminCookie, rootId: rootInfo.id };
  try {
    const t = await deliveryThroughput({
      ...common,
      databaseUrl: db.url,
      portalPid: portal.pid,
      readFileSync,
      count: WEBHOOK_DELIVERIES,
    });
    report.detail('webhooks.throughput', t);
    const problems = t.received < t.count || t.states.pending || t.states.failed ? `; ${t.received} of ${t.count} received` : '';
    report.set(
      'webhooks.rate',
      round(t.perSecond / CORES, 1),
      problems ? false : undefined,
      `${t.perSecond}/s on ${CORES} cores (portal, PostgreSQL, receiver and bench share them); ${t.perPortalCpuSecond} per CPU-second of the portal; ${t.count} in ${t.seconds} s${problems}`,
    );
  } catch (err) {
    report.settle(['webhooks.rate'], err);
  }
  const d = await deliveryDelay({
    ...common,
    databaseUrl: db.url,
    adminEmail: ADMIN_EMAIL,
    password: ADMIN_PASSWORD,
    rate: WEBHOOK_CHANGE_RATE,
    seconds: LOAD_SECONDS,
  });
  report.detail('webhooks.delay', d);
  const wrong =
    d.accepted < d.changes || d.delivered < d.accepted || d.invalidSignatures
      ? `; ${d.accepted} changes accepted, ${d.delivered} delivered, ${d.invalidSignatures} bad signatures`
      : '';
  report.set(
    'webhooks.delay',
    `${d.p50} / ${d.p99}`,
    wrong ? false : undefined,
    `max ${d.max} ms; ${d.changes} name changes at ${d.achievedRate}/s (${JSON.stringify(d.statuses)}; answered in p50 ${d.answerP50} / p99 ${d.answerP99} ms), ${d.delivered} delivered, ${d.duplicates} twice${wrong}`,
  );
}

const AUDIT_STREAM_KEYS = ['auditStreams.delay'];

/** Audit streams: the lag from an audited change to its entry at a Splunk HEC collector, under a stream of changes. */
async function stepAuditStreams() {
  const client = new Client(portal.baseUrl);
  const adminCookie = await signIn(client, ADMIN_EMAIL, ADMIN_PASSWORD);
  const d = await streamDelay({
    baseUrl: portal.baseUrl,
    adminCookie,
    rootId: rootInfo.id,
    rate: WEBHOOK_CHANGE_RATE,
    seconds: LOAD_SECONDS,
  });
  report.detail('auditStreams.delay', d);
  const wrong =
    d.accepted < d.changes || d.delivered < d.accepted || d.refused
      ? `; ${d.accepted} changes accepted, ${d.delivered} delivered, ${d.refused} refused`
      : '';
  report.set(
    'auditStreams.delay',
    `${d.p50} / ${d.p99}`,
    !wrong && d.p99 <= 1000,
    `from the transaction's start (an upper bound); from the answer (a lower bound) p50 ${d.fromAnswerP50} / p99 ${d.fromAnswerP99}; max ${d.max} ms; ${d.changes} audited changes at ${d.achievedRate}/s (${JSON.stringify(d.statuses)}; answered in p50 ${d.answerP50} / p99 ${d.answerP99} ms), ${d.delivered} delivered, ${d.duplicates} twice, ${d.overtaken} after a later entry of a concurrent transaction${wrong}`,
  );
}

const READ_KEYS = [
  'hello.rps',
  'hellodb.rps',
  'userinfo.rps',
  'userinfo.ratio',
  'userinfo.p99',
  'hello.cpu',
  'userinfo.cpu',
  'userinfo.cpuRatio',
  'orgpage.rps',
  'orgpage.p99',
  ...ORG_PAGE_SECTIONS.map(([key]) => `orgpage.${key}`),
  'treeRead.rps',
  'treeRead.cpu',
  'treeRead.cpuRatio',
];

const WEB_KEYS = [
  'web.login',
  'web.loginReady',
  'web.loginKeystroke',
  'web.loginLcp',
  'web.loginBytes',
  'web.invitationReady',
  'web.invitationKeystroke',
  'web.invitationBytes',
  'web.manage',
  'web.manageReady',
  'web.manageLcp',
  'web.manageBytes',
  'web.filter',
];

function recordMemory(key) {
  const m = memoryOf(portal.pid, readFileSync);
  report.detail(`memory.${key}`, m);
  return m;
}

// ------------------------------------------------------------------------------- main
let rootInfo;

async function main() {
  log(`${QUICK ? 'QUICK' : 'full'} run on ${CORES} cores (${cpus()[0]?.model ?? 'cpu'}), ${Math.round(totalmem() / 2 ** 30)} GB`);
  await build();
  db = await createBenchDatabase(ADMIN_URL);
  // the memory run reads the portal's V8 heap from its metrics
  portal = await startPortal(ONLY === 'memory' ? { METRICS_ENABLED: 'true' } : {});
  rootInfo = await rootOrganization();
  if (!rootInfo.id) throw new Error('the portal started but bootstrapped no root organization');
  if (ONLY === 'web') {
    report.rows = report.rows.filter((row) => WEB_KEYS.includes(row.key));
    await step('web', WEB_KEYS, 600_000, stepWeb);
    return;
  }
  if (ONLY === 'webhooks') {
    report.rows = report.rows.filter((row) => WEBHOOK_KEYS.includes(row.key));
    await step('webhooks', WEBHOOK_KEYS, 360_000, stepWebhooks);
    return;
  }
  if (ONLY === 'audit-streams') {
    report.rows = report.rows.filter((row) => AUDIT_STREAM_KEYS.includes(row.key));
    await step('audit streams', AUDIT_STREAM_KEYS, 120_000, stepAuditStreams);
    return;
  }
  if (ONLY === 'reads') {
    report.rows = report.rows.filter((row) => READ_KEYS.includes(row.key));
    await step('reads', READ_KEYS, 420_000, stepReads);
    return;
  }
  if (ONLY === 'pglite') {
    report.rows = report.rows.filter((row) => ['rss.pglite', 'rss.pgliteSettled'].includes(row.key));
    await step('pglite', ['rss.pglite', 'rss.pgliteSettled'], 6 * 60_000, stepPglite);
    return;
  }
  await sleep(3000);
  const idle = recordMemory('idle');
  report.set('rss.idle', idle.rssMb, idle.rssMb <= 250);
  if (ONLY === 'memory') {
    const keys = ['seed.100k', 'rss.idle', 'rss.load', 'rss.peak', 'rss.settled', 'rss.pglite', 'rss.pgliteSettled'];
    report.rows = report.rows.filter((row) => keys.includes(row.key));
    await step('memory', ['seed.100k', 'rss.load', 'rss.peak', 'rss.settled'], 8 * 60_000, stepMemory);
    await step('pglite', ['rss.pglite', 'rss.pgliteSettled'], 6 * 60_000, stepPglite);
    return;
  }

  await step('logins', ['argon2.raw', 'login.rate', 'login.ratio', 'login.ratioAtCores'], 120_000, stepLogins);
  await step('reads', READ_KEYS, 420_000, stepReads);
  await step('refresh', ['refresh.rate', 'refresh.perCore'], 120_000, stepRefresh);
  await step('refresh es256', ['refresh.es256'], 90_000, () => stepRefresh('.es256'));
  if (ONLY === 'core') {
    const core = [
      'argon2.raw',
      'login.rate',
      'login.ratio',
      'login.ratioAtCores',
      'hello.rps',
      'hellodb.rps',
      'userinfo.rps',
      'userinfo.ratio',
      'userinfo.p99',
      'hello.cpu',
      'userinfo.cpu',
      'userinfo.cpuRatio',
      'treeRead.cpu',
      'treeRead.cpuRatio',
    ];
    const keys = [
      ...core,
      'orgpage.rps',
      'orgpage.p99',
      'refresh.rate',
      'refresh.perCore',
      'refresh.es256',
      'rss.idle',
      'rss.pglite',
      'rss.pgliteSettled',
    ];
    report.rows = report.rows.filter((row) => keys.includes(row.key));
    await step('pglite', ['rss.pglite', 'rss.pgliteSettled'], 6 * 60_000, stepPglite);
    return;
  }

  await step('webhooks', WEBHOOK_KEYS, 360_000, stepWebhooks);
  await step('audit streams', AUDIT_STREAM_KEYS, 120_000, stepAuditStreams);

  const scaleKeys = (tag) => [`seed.${tag}`, `tree.${tag}`, `treeBuild.${tag}`, `org.${tag}`, `search.${tag}`];
  await step('scale 100k', scaleKeys('100k'), 7 * 60_000, async () => {
    await seed('100k', MEMBERS_SMALL, 4 * 60_000);
    await measureScale('100k');
  });
  if (scale.counts) await step('refresh 100k', ['refresh.100k'], 90_000, () => stepRefresh('.100k'));
  else report.mark('refresh.100k', 'unavailable', 'needs the seeded users');
  await step('web', WEB_KEYS, 600_000, stepWeb);
  // the memory rows after it: a minute of idle, then the portal on PGlite with its own burst and minute
  const memoryTailMs = SETTLE_SECONDS * 1000 + (!QUICK || process.env.BENCH_PGLITE === '1' ? (2 * SETTLE_SECONDS + 60) * 1000 : 0);
  const remaining = RUN_LIMIT_MS - (Date.now() - started) - memoryTailMs;
  if (QUICK) {
    for (const k of [...scaleKeys('1m'), 'search.growth']) report.mark(k, 'skipped', 'BENCH_QUICK=1');
  } else if (remaining < 5 * 60_000) {
    for (const k of [...scaleKeys('1m'), 'search.growth'])
      report.mark(k, 'skipped', `not enough time left in the 15-minute budget (${Math.round(remaining / 1000)} s)`);
  } else {
    // the seed gets what the budget leaves after the measurements (about 2 minutes)
    const limit = Math.min(remaining - 30_000, 11 * 60_000);
    await step('scale 1M', scaleKeys('1m'), limit, async () => {
      await seed('1m', MEMBERS_LARGE, limit - 150_000);
      await measureScale('1m');
    });
    const a = scale['100k']?.search;
    const b = scale['1m']?.search;
    if (a && b) {
      const growth = round(b.p95 / a.p95, 2);
      report.set('search.growth', `${growth}×`, growth <= 2, `p95 ${a.p95} → ${b.p95} ms`);
    } else report.mark('search.growth', 'unavailable', 'needs both member-search measurements');
  }

  const after = recordMemory('afterLoad');
  report.set('rss.load', after.rssMb, after.rssMb <= 250);
  report.set('rss.peak', after.peakMb, after.peakMb <= 250);
  log(`the portal idles ${SETTLE_SECONDS} s`);
  await sleep(SETTLE_SECONDS * 1000);
  const settled = recordMemory('settled');
  report.set('rss.settled', settled.rssMb, settled.rssMb <= 250, `${after.rssMb} MB right after the load`);
  if (!QUICK || process.env.BENCH_PGLITE === '1') await step('pglite', ['rss.pglite', 'rss.pgliteSettled'], 6 * 60_000, stepPglite);
  else for (const key of ['rss.pglite', 'rss.pgliteSettled']) report.mark(key, 'skipped', 'BENCH_QUICK=1 (BENCH_PGLITE=1 runs it)');
}

/** The notes of a memory row: what the burst did and the V8 heap before and after. */
function memoryNote(m) {
  const heap = (x) =>
    x.heap ? `heap ${x.heap.heapUsedMb}/${x.heap.heapTotalMb} MB (used/total), external ${x.heap.externalMb} MB` : 'heap n/a';
  return `${m.after.rssMb} MB right after the burst (${m.done.logins} logins, ${m.done.reads} reads, ${m.done.treeRebuilds} tree rebuilds of ${m.done.treeKb} KB (sent brotli), ${m.done.refreshGrants} refresh grants in ${m.done.seconds} s); before: ${heap(m.before)}; after: ${heap(m.after)}; settled: ${heap(m.settled)}`;
}

/**
 * Memory on PostgreSQL (`--only memory`): 10k organizations and 100k members seeded, then a burst
 * of logins, reads, tree rebuilds (10,000 organizations each) and refresh grants, then a minute of
 * idle (bench/lib/memory.mjs).
 */
async function stepMemory() {
  await seed('100k', MEMBERS_SMALL, 4 * 60_000);
  const m = await memoryAfterBurst(
    portal,
    {
      baseUrl: portal.baseUrl,
      dcrToken: portal.dcrToken,
      email: ADMIN_EMAIL,
      password: ADMIN_PASSWORD,
      rootId: rootInfo.id,
      seconds: BURST_SECONDS,
      loginConcurrency: LOGIN_CONCURRENCY,
      treeRebuilds: QUICK ? 5 : 12,
      chains: REFRESH_CHAINS,
    },
    SETTLE_SECONDS,
  );
  report.detail('memory.burst', m);
  report.set('rss.load', m.after.rssMb, m.after.rssMb <= 250, 'right after the burst');
  report.set('rss.peak', m.settled.peakMb, m.settled.peakMb <= 250);
  report.set('rss.settled', m.settled.rssMb, m.settled.rssMb <= 250, memoryNote(m));
}

/**
 * The portal on the embedded database, as `npm start` runs it without DATABASE_URL: an empty
 * DATA_DIR, one sign-in and a few reads, then 10 s idle; its VmRSS (bench/pglite-memory.mjs has the
 * longer series: first start, a load, a restart).
 */
async function stepPglite() {
  const dataDir = mkdtempSync(join(tmpdir(), 'pp-bench-pglite-'));
  const dcrToken = randomBytes(24).toString('base64url');
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  let embedded;
  try {
    embedded = await startNode('apps/server/dist/main.js', {
      env: {
        NODE_ENV: 'production',
        DATABASE_URL: '',
        REDIS_URL: '',
        SMTP_URL: '',
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_URL: baseUrl,
        BOOTSTRAP_ADMIN_EMAIL: ADMIN_EMAIL,
        BOOTSTRAP_ADMIN_PASSWORD: ADMIN_PASSWORD,
        DCR_INITIAL_ACCESS_TOKEN: dcrToken,
        LOG_LEVEL: PORTAL_LOG_LEVEL,
        METRICS_ENABLED: 'true',
        RATE_LIMIT_MAX: '1000000000',
        RATE_LIMIT_SESSION_MAX: '1000000000',
        LOGIN_RATE_LIMIT_PER_ACCOUNT: '1000000000',
        LOGIN_RATE_LIMIT_PER_IP: '1000000000',
      },
      readyUrl: `${baseUrl}/health`,
      // the first start creates the embedded database (initdb in a child process) and migrates it
      timeoutMs: 180_000,
      label: 'pglite',
      logFile: join(LOG_DIR, 'pglite.log'),
    });
    const client = new Client(baseUrl);
    await signIn(client, ADMIN_EMAIL, ADMIN_PASSWORD);
    for (let i = 0; i < 20; i++) await client.get('/api/identity/user-info');
    await sleep(10_000);
    const m = memoryOf(embedded.pid, readFileSync);
    report.detail('memory.pglite', m);
    report.set(
      'rss.pglite',
      m.rssMb,
      m.rssMb <= 250,
      `peak ${m.peakMb} MB; on PostgreSQL ${report.byKey.get('rss.idle')?.value} MB at idle in this run`,
    );
    const root = (await client.get('/api/identity/user-info')).body.organizationId;
    const b = await memoryAfterBurst(
      { pid: embedded.pid, baseUrl },
      {
        baseUrl,
        dcrToken,
        email: ADMIN_EMAIL,
        password: ADMIN_PASSWORD,
        rootId: root,
        seconds: BURST_SECONDS,
        loginConcurrency: LOGIN_CONCURRENCY,
        treeRebuilds: QUICK ? 5 : 12,
        chains: REFRESH_CHAINS,
      },
      SETTLE_SECONDS,
    );
    report.detail('memory.pgliteBurst', b);
    report.set('rss.pgliteSettled', b.settled.rssMb, b.settled.rssMb <= 250, `peak ${b.settled.peakMb} MB; ${memoryNote(b)}`);
  } finally {
    await embedded?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

let exitCode = 0;
try {
  await main();
} catch (err) {
  exitCode = 1;
  log(`FAILED: ${err.stack ?? err}`);
  report.note(`run failed: ${err.message.split('\n')[0]}`);
  for (const row of report.rows) report.mark(row.key, 'error', 'the run stopped early');
} finally {
  if (portal) report.detail('portalLogTail', portal.output.slice(-10));
  await cleanup();
}
const seconds = round((Date.now() - started) / 1000);
report.print();
report.write(`${ROOT}bench/results.json`, {
  generatedAt: new Date().toISOString(),
  quick: QUICK,
  cores: CORES,
  cpu: cpus()[0]?.model,
  node: process.version,
  durationSeconds: seconds,
  git: await runCommand('git', ['rev-parse', '--short', 'HEAD'], { timeoutMs: 10_000 })
    .then((r) => r.tail.trim())
    .catch(() => null),
});
console.log(`bench/results.json written; ${seconds} s`);
process.exit(exitCode);
