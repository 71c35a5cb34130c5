#!/usr/bin/env node
// Profile one scenario of the bench: the portal runs with --cpu-prof, one load runs against it,
// then the profile is summarised (self time by function and by package) and the database
// statements per request are counted (pg_stat_database, after the stats are flushed).
//
//   node bench/profile.mjs userinfo|orgpage|login|refresh|tree|search [seconds]
//
// tree and search need data: BENCH_PROFILE_DATABASE_URL=<url of a seeded database> (kept as is;
// e.g. one left by BENCH_KEEP_DB=1 npm run bench); otherwise a fresh database is made and dropped.
//
// Uses the existing builds (run npm run bench or the builds first). Writes the .cpuprofile under
// bench/profiles/ (git-ignored through bench/.gitignore) to open in Chrome DevTools.
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { browserApiCookies, Client, sampleLatency, signIn } from './lib/http.mjs';
import { load } from './lib/load.mjs';
import { prepareRefreshTokens, refreshChains } from './lib/oidc.mjs';
import {
  activityPerRequest,
  createBenchDatabase,
  databaseActivity,
  freePort,
  killChildren,
  pgClient,
  startNode,
} from './lib/processes.mjs';
import { log, ROOT, round, sleep } from './lib/util.mjs';

const scenario = process.argv[2] ?? 'userinfo';
const seconds = Number(process.argv[3] ?? 10);
const EMAIL = 'bench-admin@example.com';
const PASSWORD = 'Bench-Admin-Passw0rd!';
const dir = `${ROOT}bench/profiles/${scenario}-${Date.now()}`;
mkdirSync(dir, { recursive: true });

const given = process.env.BENCH_PROFILE_DATABASE_URL;
const db = given
  ? { url: given, name: new URL(given).pathname.slice(1), drop: async () => undefined }
  : await createBenchDatabase(process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test');
let portal;
try {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const dcrToken = randomBytes(24).toString('base64url');
  portal = await startNode('apps/server/dist/main.js', {
    nodeArgs: ['--cpu-prof', '--cpu-prof-dir', dir, '--cpu-prof-interval', '500'],
    env: {
      NODE_ENV: 'production',
      DATABASE_URL: db.url,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: baseUrl,
      BOOTSTRAP_ADMIN_EMAIL: EMAIL,
      BOOTSTRAP_ADMIN_PASSWORD: PASSWORD,
      DCR_INITIAL_ACCESS_TOKEN: dcrToken,
      RATE_LIMIT_MAX: '1000000000',
      RATE_LIMIT_SESSION_MAX: '1000000000',
      LOGIN_RATE_LIMIT_PER_ACCOUNT: '1000000000',
      LOGIN_RATE_LIMIT_PER_IP: '1000000000',
      // the defaults, as `npm run bench` measures (BENCH_LOG_LEVEL=warn: without the access log)
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
      SMTP_URL: '',
      REDIS_URL: '',
    },
    readyUrl: `${baseUrl}/health`,
    label: 'portal',
    logFile: `${dir}/portal.log`,
  });
  const c = await pgClient(db.url);
  const rootId = (await c.query('SELECT id FROM organizations WHERE parent_id IS NULL')).rows[0].id;
  await c.end();
  const client = new Client(baseUrl);
  await signIn(client, EMAIL, PASSWORD);
  const headers = { cookie: browserApiCookies(client), 'x-csrf': '1' };

  let run;
  let requestsOf = (r) => r.ok;
  if (scenario === 'userinfo' || scenario === 'orgpage') {
    const url = scenario === 'userinfo' ? `${baseUrl}/api/identity/user-info` : `${baseUrl}/api/organizations/${rootId}`;
    await load({ url, connections: 50, durationSeconds: 2, headers });
    run = () => load({ url, connections: 50, durationSeconds: seconds, headers });
  } else if (scenario === 'login') {
    const h = { 'content-type': 'application/json', 'x-csrf': '1' };
    const requests = [
      { method: 'POST', path: '/api/identity/email-login', headers: h, body: JSON.stringify({ email: EMAIL }) },
      {
        method: 'POST',
        path: '/api/identity/login',
        headers: h,
        body: JSON.stringify({ email: EMAIL, password: PASSWORD, remember: false }),
      },
    ];
    run = () => load({ url: baseUrl, connections: 2, durationSeconds: seconds, requests });
    requestsOf = (r) => r.ok / 2;
  } else if (scenario === 'tree' || scenario === 'search') {
    const q = ['ann', 'ete', 'sen', 'ria', 'ber', 'ola'];
    const path = (i) =>
      scenario === 'tree' ? '/api/organizations/tree' : `/api/members/search?organizationId=${rootId}&q=${q[i % q.length]}`;
    run = async () => {
      const r = await sampleLatency(baseUrl, path, { count: 10_000, maxMs: seconds * 1000, headers });
      return { ...r, ok: r.n };
    };
  } else if (scenario === 'refresh') {
    const { meta, registered, tokens } = await prepareRefreshTokens({ baseUrl, dcrToken, email: EMAIL, password: PASSWORD, chains: 16 });
    run = () => refreshChains(baseUrl, meta, registered, tokens, seconds);
    requestsOf = (r) => r.grants;
  } else {
    throw new Error(`unknown scenario ${scenario}`);
  }
  await sleep(11_000); // let the server's backends flush their statistics
  const before = await databaseActivity(db.url, db.name);
  const tablesBefore = await tableActivity(db.url);
  const runStart = Date.now();
  const result = await run();
  const runEnd = Date.now();
  await sleep(11_000);
  const after = await databaseActivity(db.url, db.name);
  const tablesAfter = await tableActivity(db.url);
  const n = requestsOf(result);
  const perTable = {};
  for (const [table, stats] of Object.entries(tablesAfter)) {
    const row = {};
    for (const [k, v] of Object.entries(stats)) {
      const d = round((v - (tablesBefore[table]?.[k] ?? 0)) / Math.max(1, n), 2);
      if (d) row[k] = d;
    }
    if (Object.keys(row).length) perTable[table] = row;
  }
  const { page: _page, ...shown } = result;
  console.log(
    JSON.stringify(
      { scenario, result: shown, databasePerRequest: activityPerRequest(before, after, n), tablesPerRequest: perTable },
      null,
      2,
    ),
  );
  await portal.stop();
  portal = undefined;
  const exited = Date.now();

  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) throw new Error('no profile written');
  // only the samples of the measured run: [runStart, runEnd] counted back from the exit
  summarise(JSON.parse(readFileSync(`${dir}/${file}`, 'utf8')), (exited - runStart) * 1000 - 300_000, (exited - runEnd) * 1000 + 300_000);
  console.log(`profile: ${dir}/${file}`);
} finally {
  await portal?.stop().catch(() => undefined);
  killChildren();
  await db.drop();
  if (process.env.BENCH_KEEP_PROFILE !== '1') rmSync(dir, { recursive: true, force: true });
}

/** Scans and writes per table (pg_stat_user_tables), to see which statements a request makes. */
async function tableActivity(url) {
  const c = await pgClient(url);
  try {
    await c.query('SELECT pg_stat_clear_snapshot()');
    const { rows } = await c.query('SELECT relname, seq_scan, idx_scan, n_tup_ins, n_tup_upd, n_tup_del FROM pg_stat_user_tables');
    return Object.fromEntries(
      rows.map((r) => [
        r.relname,
        {
          seq_scan: Number(r.seq_scan),
          idx_scan: Number(r.idx_scan ?? 0),
          ins: Number(r.n_tup_ins),
          upd: Number(r.n_tup_upd),
          del: Number(r.n_tup_del),
        },
      ]),
    );
  } finally {
    await c.end();
  }
}

function summarise(profile, fromEndMicros, toEndMicros) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  const dt = new Map();
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i] ?? 0;
    const beforeEnd = profile.endTime - t;
    if (beforeEnd > fromEndMicros || beforeEnd < toEndMicros) continue;
    const id = profile.samples[i];
    dt.set(id, (dt.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  let total = 0;
  const packages = new Map();
  for (const [id, micros] of dt) {
    const node = byId.get(id);
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === '(idle)') continue;
    const where = url.replace(`file://${ROOT}`, '').replace(/^.*node_modules\//, 'node_modules/');
    const key = `${functionName || '(anonymous)'} ${where}:${lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + micros);
    total += micros;
    const pkg = url.includes('node_modules/')
      ? url.replace(/^.*node_modules\/((@[^/]+\/)?[^/]+).*$/, '$1')
      : url.startsWith('node:') || !url
        ? functionName.startsWith('(')
          ? functionName
          : `node internals`
        : url.includes('/apps/server/')
          ? 'portal code'
          : url.includes('/packages/')
            ? 'contracts'
            : where;
    packages.set(pkg, (packages.get(pkg) ?? 0) + micros);
  }
  const top = (map, n) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, v]) => `${String(round((v / total) * 100)).padStart(5)}%  ${k}`)
      .join('\n');
  log(`profile: ${round(total / 1e6, 2)} s of samples`);
  console.log(`\nself time by package:\n${top(packages, 20)}\n\nself time by function:\n${top(self, 30)}\n`);
}
