// Child processes of the bench: the portal, the Fastify hello-world, one-shot commands; and the
// bench's own PostgreSQL database.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fromServer, log, ROOT, sleep } from './util.mjs';

const children = new Set();

/** Kill every child still running (on exit, on error). Only processes this bench started. */
export function killChildren() {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(child.pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }
  }
}

export async function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/**
 * Run a command to completion with a time limit; output goes to the bench's stderr (prefixed)
 * and the last lines are kept for error messages. Resolves { code, tail, ms }.
 */
export async function runCommand(cmd, args, { env = {}, timeoutMs, label = cmd }) {
  const started = Date.now();
  const child = spawn(cmd, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  const lines = [];
  const take = (chunk) => {
    for (const line of chunk.toString().split('\n')) {
      if (!line.trim()) continue;
      lines.push(line);
      if (lines.length > 40) lines.shift();
      if (process.env.BENCH_VERBOSE) console.error(`  [${label}] ${line}`);
    }
  };
  child.stdout.on('data', take);
  child.stderr.on('data', take);
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const [code, signal] = await once(child, 'exit');
  clearTimeout(timer);
  children.delete(child);
  return {
    code: signal ? `killed (${signal}, limit ${Math.round(timeoutMs / 1000)} s)` : code,
    tail: lines.slice(-15).join('\n'),
    ms: Date.now() - started,
  };
}

async function waitForHttp(url, child, timeoutMs, tail) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`process exited with ${child.exitCode} before answering:\n${tail().join('\n')}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (res.status < 500) return;
    } catch {
      /* not yet */
    }
    await sleep(200);
  }
  throw new Error(`no answer from ${url} within ${timeoutMs / 1000} s:\n${tail().join('\n')}`);
}

/** The last lines of a file (a portal's log), each cut at 500 characters. */
function lastLines(file, count = 30) {
  try {
    const text = readFileSync(file, 'utf8');
    return text
      .slice(-200_000)
      .split('\n')
      .filter((line) => line.trim())
      .slice(-count)
      .map((line) => (line.length > 500 ? `${line.slice(0, 500)}…` : line));
  } catch {
    return [];
  }
}

/**
 * Start a long-running node process and wait until url answers. With `logFile`, its output goes
 * straight to that file (a portal at LOG_LEVEL=info writes a line per request: read by the bench
 * through a pipe, those lines would cost the bench's CPU on the cores the portal is measured on);
 * otherwise its last lines are kept in memory.
 */
export async function startNode(script, { env = {}, args = [], nodeArgs = [], readyUrl, timeoutMs = 60_000, label, logFile }) {
  const fd = logFile ? openSync(logFile, 'a') : undefined;
  const child = spawn(process.execPath, [...nodeArgs, script, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: fd === undefined ? ['ignore', 'pipe', 'pipe'] : ['ignore', fd, fd],
  });
  if (fd !== undefined) closeSync(fd);
  children.add(child);
  const kept = [];
  const keep = (chunk) => {
    for (const line of chunk.toString().split('\n')) {
      if (!line.trim()) continue;
      kept.push(line.length > 500 ? `${line.slice(0, 500)}…` : line);
      if (kept.length > 30) kept.shift();
      if (process.env.BENCH_VERBOSE) console.error(`  [${label}] ${line}`);
    }
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const tail = () => (logFile ? lastLines(logFile) : kept);
  await waitForHttp(readyUrl, child, timeoutMs, tail);
  return {
    child,
    pid: child.pid,
    get output() {
      return tail();
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await once(child, 'exit').catch(() => undefined);
      clearTimeout(timer);
      children.delete(child);
    },
  };
}

// ---------------------------------------------------------------- PostgreSQL

export async function pgClient(url) {
  const pg = fromServer('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}

export function withDatabase(url, database) {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** A fresh database pp_bench_<ts> on the admin URL; drop() removes it. */
export async function createBenchDatabase(adminUrl) {
  const host = new URL(adminUrl).hostname;
  if (host !== '127.0.0.1' && host !== 'localhost' && host !== '::1') throw new Error(`DATABASE_URL must point at 127.0.0.1 (got ${host})`);
  const name = `pp_bench_${Date.now()}`;
  const admin = await pgClient(adminUrl);
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  log(`database ${name} created`);
  return {
    name,
    url: withDatabase(adminUrl, name),
    async drop() {
      const c = await pgClient(adminUrl);
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        log(`database ${name} dropped`);
      } finally {
        await c.end();
      }
    },
  };
}

/**
 * Database activity of one database: transactions (each autocommit statement is one) and rows
 * written. Taken before and after a load run, the difference per request counts round trips.
 */
export async function databaseActivity(url, name) {
  const c = await pgClient(url);
  try {
    await c.query('SELECT pg_stat_clear_snapshot()');
    const { rows } = await c.query(
      `SELECT xact_commit + xact_rollback AS xacts, tup_returned, tup_fetched, tup_inserted, tup_updated, tup_deleted
       FROM pg_stat_database WHERE datname = $1`,
      [name],
    );
    return Object.fromEntries(Object.entries(rows[0] ?? {}).map(([k, v]) => [k, Number(v)]));
  } finally {
    await c.end();
  }
}

/** Per-request database activity between two snapshots (the snapshot queries themselves subtracted). */
export function activityPerRequest(before, after, requests) {
  const out = {};
  for (const key of Object.keys(after))
    out[key] = Math.round(((after[key] - before[key] - (key === 'xacts' ? 2 : 0)) / Math.max(1, requests)) * 100) / 100;
  return out;
}
