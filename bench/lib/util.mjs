// Small helpers shared by the benchmark scenarios. Plain Node ESM: no build step.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Dependencies the bench borrows from the workspaces that already declare them (no extra install):
 * pg, fastify and @node-rs/argon2 from the server, playwright-core from e2e.
 */
export const fromServer = createRequire(new URL('../../apps/server/package.json', import.meta.url));
export const fromE2e = createRequire(new URL('../../e2e/package.json', import.meta.url));
export const fromBench = createRequire(new URL('../package.json', import.meta.url));

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const t0 = Date.now();
export function log(...args) {
  const s = ((Date.now() - t0) / 1000).toFixed(1).padStart(6);
  console.error(`[bench ${s}s]`, ...args);
}

/** Percentile (nearest-rank) of a list of numbers. */
export function percentile(values, p) {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

export function round(n, digits = 1) {
  if (typeof n !== 'number' || !Number.isFinite(n)) return n;
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

/** Reject after ms with a clear message. */
export async function withTimeout(promise, ms, what) {
  let timer;
  try {
    return await Promise.race([
      promise,
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what}: timed out after ${Math.round(ms / 1000)} s`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** An error that marks a measurement as unavailable (endpoint missing, feature not built yet). */
export class Unavailable extends Error {
  constructor(message) {
    super(message);
    this.name = 'Unavailable';
  }
}

/** RSS, peak RSS (VmHWM) of a process in MB, from /proc/<pid>/status. */
export function memoryOf(pid, readFileSync) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rssMb: round(kb('VmRSS') / 1024), peakMb: round(kb('VmHWM') / 1024) };
}

/** CPU seconds (user + system, every thread) a process has used so far, from /proc/<pid>/stat. */
export function cpuSecondsOf(pid, readFileSync) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  // utime and stime are fields 14 and 15 of stat, in clock ticks (100 per second on Linux)
  return (Number(fields[11]) + Number(fields[12])) / 100;
}
