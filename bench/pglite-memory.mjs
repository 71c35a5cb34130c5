#!/usr/bin/env node
// Memory of the portal on the embedded database (PGlite), the way `npm start` runs it: the built
// server (apps/server/dist/main.js, build it first) on an empty DATA_DIR, NODE_ENV=production.
// Prints VmRSS and VmHWM (peak) of the portal process: at idle after the first start, after a small
// load (logins, reads, the organization tree, organizations created), at idle after it, and at
// idle after a restart on the same DATA_DIR. Method and results: docs/performance.md.
//
//   node bench/pglite-memory.mjs            # PORT 3990 by default (BENCH_PORT)
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../apps/server/dist/main.js', import.meta.url));
const PORT = Number(process.env.BENCH_PORT ?? 3990);
const BASE = `http://127.0.0.1:${PORT}`;
const PASSWORD = 'Bench-Passw0rd!';
const IDLE_MS = 10_000;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function memory(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const mb = (k) => Math.round(Number(new RegExp(`${k}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024);
  return { rss: mb('VmRSS'), peak: mb('VmHWM') };
}

async function start(dataDir) {
  const child = spawn(process.execPath, [MAIN], {
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      BOOTSTRAP_ADMIN_PASSWORD: PASSWORD,
      RATE_LIMIT_MAX: '1000000',
      LOGIN_RATE_LIMIT_PER_ACCOUNT: '10000',
      LOGIN_RATE_LIMIT_PER_IP: '10000',
    },
    stdio: 'ignore',
  });
  for (let i = 0; i < 240; i++) {
    if (child.exitCode !== null) throw new Error(`the portal exited (${child.exitCode})`);
    try {
      if ((await fetch(`${BASE}/health`)).status === 200) return child;
    } catch {
      /* not yet */
    }
    await sleep(250);
  }
  throw new Error('the portal did not start');
}

async function stop(child) {
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
}

async function api(method, path, cookie, body) {
  const res = await fetch(`${BASE}${path}`, {
    method,
    headers: { 'x-csrf': '1', ...(cookie ? { cookie } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

async function smallLoad() {
  let cookie = '';
  for (let i = 0; i < 20; i++) {
    const login = await api('POST', '/api/identity/login', '', { email: 'admin@example.com', password: PASSWORD });
    if (login.status !== 200) throw new Error(`login: ${login.status}`);
    cookie = login.headers
      .getSetCookie()
      .find((c) => c.startsWith('pp_session='))
      .split(';')[0];
    await Promise.all(Array.from({ length: 20 }, () => api('GET', '/api/identity/user-info', cookie)));
    await api('GET', '/api/organizations/tree', cookie);
  }
  const root = (await api('GET', '/api/identity/user-info', cookie)).body.organizationId;
  for (let i = 0; i < 30; i++) {
    const created = await api('POST', '/api/organizations', cookie, { parent_organization_id: root, name: `Memory ${i}`, client_ids: [] });
    if (created.status !== 201) throw new Error(`create organization: ${created.status}`);
    await api('GET', `/api/organizations/${created.body.id}`, cookie);
  }
  await api('GET', '/api/organizations/tree', cookie);
}

const dataDir = mkdtempSync(join(tmpdir(), 'pp-pglite-memory-'));
const rows = [];
try {
  let portal = await start(dataDir);
  await sleep(IDLE_MS);
  rows.push(['idle after the first start (empty DATA_DIR)', memory(portal.pid)]);
  await smallLoad();
  rows.push(['right after a small load', memory(portal.pid)]);
  await sleep(IDLE_MS);
  rows.push(['idle after the load', memory(portal.pid)]);
  await stop(portal);
  portal = await start(dataDir);
  await sleep(IDLE_MS);
  rows.push(['idle after a restart on the same DATA_DIR', memory(portal.pid)]);
  await stop(portal);
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
console.log('| moment | RSS (MB) | peak RSS so far, VmHWM (MB) |\n|---|---|---|');
for (const [moment, m] of rows) console.log(`| ${moment} | ${m.rss} | ${m.peak} |`);
