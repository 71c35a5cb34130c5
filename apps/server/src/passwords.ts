import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

/** argon2id with the parameters of OWASP's recommendation (m=19456 KiB, t=2, p=1). */
export const ARGON2_OPTIONS = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

/**
 * Runs at most `max` tasks at once; the others wait in arrival order. A finished task hands its
 * slot straight to the next one.
 */
export function concurrencyLimit(max: number) {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async function run<T>(task: () => Promise<T>): Promise<T> {
    if (active < max) active++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else active--;
    }
  };
}

/**
 * Password hashing threads (docs/performance.md, "Password logins"). Each hash runs on a thread
 * of its own that lowers its scheduling priority (nice 10, Linux: per thread) before its first
 * hash: argon2 is CPU-bound for ~10 ms, and at the same priority as the request thread and the
 * database it delays both whenever every core is hashing. At a lower priority it takes all the
 * CPU the others leave and gives it back the moment they wake. One thread per core: more hashes
 * at once than cores only add memory (19 MiB each while hashing). Started at the first hash,
 * unreferenced (they never keep the process alive).
 */
/** nice value of the hashing threads (0 is the request thread's) */
export const HASH_THREAD_NICE = 10;

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
try { require('node:os').setPriority(${HASH_THREAD_NICE}); } catch {}
const { hashSync, verifySync } = require(workerData.argon2);
parentPort.on('message', ({ id, kind, hash, password, options }) => {
  let result, failed = false;
  try { result = kind === 'hash' ? hashSync(password, options) : verifySync(hash, password, options); }
  catch (err) { failed = true; result = String(err && err.message || err); }
  parentPort.postMessage({ id, failed, result });
});
`;

interface Job {
  resolve: (value: string | boolean) => void;
  reject: (err: Error) => void;
}

class HashThread {
  private readonly jobs = new Map<number, Job>();
  private nextId = 0;
  private worker: Worker | undefined;

  run(message: { kind: 'hash'; password: string } | { kind: 'verify'; hash: string; password: string }): Promise<string | boolean> {
    const worker = (this.worker ??= this.start());
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.jobs.set(id, { resolve, reject });
      if (this.jobs.size === 1) worker.ref();
      worker.postMessage({ ...message, id, options: ARGON2_OPTIONS });
    });
  }

  private start(): Worker {
    const argon2 = createRequire(import.meta.url).resolve('@node-rs/argon2');
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { argon2 } });
    worker.unref();
    worker.on('message', (m: { id: number; failed: boolean; result: string | boolean }) => {
      const job = this.jobs.get(m.id);
      this.jobs.delete(m.id);
      if (this.jobs.size === 0) worker.unref();
      if (!job) return;
      if (m.failed) job.reject(new Error(String(m.result)));
      else job.resolve(m.result);
    });
    const fail = (err: Error) => {
      this.worker = undefined;
      for (const job of this.jobs.values()) job.reject(err);
      this.jobs.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`password thread exited (${code})`)));
    return worker;
  }
}

const threads = Array.from({ length: availableParallelism() }, () => new HashThread());
const idle = [...threads];
const slot = concurrencyLimit(threads.length);

/** A task on a free hashing thread (there is one whenever the limit lets a task run). */
function onThread<T>(task: (thread: HashThread) => Promise<T>): Promise<T> {
  return slot(async () => {
    const thread = idle.pop()!;
    try {
      return await task(thread);
    } finally {
      idle.push(thread);
    }
  });
}

export function hashPassword(password: string): Promise<string> {
  return onThread((t) => t.run({ kind: 'hash', password })) as Promise<string>;
}

/** Whether `password` matches the stored argon2 `passwordHash`; a malformed hash does not match. */
export function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  return (onThread((t) => t.run({ kind: 'verify', hash: passwordHash, password })) as Promise<boolean>).catch(() => false);
}
