import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import v8 from 'node:v8';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { answers, type Database, type DatabaseOptions, type Queryable } from './database.js';

/** The embedded database (PGlite, the zero-setup default): one process owns its data directory. */

export async function openPglite(options: DatabaseOptions): Promise<Database> {
  let dataDir: string | undefined;
  let releaseLock = () => {};
  if (!options.inMemory) {
    dataDir = resolve(options.dataDir ?? './data', 'pglite');
    mkdirSync(dataDir, { recursive: true });
    releaseLock = lockDataDir(resolve(options.dataDir ?? './data', 'pglite.lock'));
  }
  let db: PGlite;
  try {
    if (dataDir && !existsSync(join(dataDir, 'PG_VERSION'))) await initEmbeddedDataDir(dataDir);
    // PostgreSQL compiled to WebAssembly is 9 MB of code. V8 compiles it with its baseline compiler
    // and then again with its optimizing one for every function that runs often; the second copy
    // cost ~50 MB of memory for no measurable gain on the embedded database's small loads.
    v8.setFlagsFromString('--liftoff-only');
    db = await PGlite.create({ ...(dataDir ? { dataDir } : {}), extensions: { pg_trgm }, startParams: PGLITE_START_PARAMS });
  } catch (err) {
    releaseLock();
    throw err;
  }
  const wrap =
    (q: Pick<PGlite, 'query' | 'exec'>): Queryable['query'] =>
    async (text, params) => {
      if (!params?.length && text.includes(';')) {
        // several statements (a migration): the simple query protocol, last result returned
        const results = await q.exec(text);
        const last = results.at(-1);
        return { rows: (last?.rows ?? []) as never[], rowCount: last?.affectedRows ?? 0 };
      }
      const result = await q.query(text, params as unknown[]);
      // as pg counts: the rows a SELECT returned, the rows a write changed (PGlite says 0 changed for a SELECT)
      return { rows: result.rows as never[], rowCount: result.affectedRows || result.rows.length };
    };
  const query = wrap(db);
  return {
    kind: 'pglite',
    query,
    async transaction(fn) {
      return db.transaction(async (t) => {
        // PGlite runs one statement at a time; the transaction object is its only connection.
        return fn({ query: wrap(t) });
      });
    },
    async withAdvisoryLock(_lockKey, fn) {
      // One process owns an embedded database; nothing to race with.
      return fn({ query });
    },
    ping: () => answers(db),
    poolStats() {
      // one connection, used by one statement at a time
      return { total: 1, idle: 1, waiting: 0 };
    },
    async listen(channel, handler, listenOptions = {}) {
      // one process owns an embedded database: every change is made through this connection
      const stop = await db.listen(channel, (payload) => handler(payload, true));
      listenOptions.onState?.(true);
      return stop;
    },
    async close() {
      await db.close();
      releaseLock();
    },
  };
}

/** The embedded database's data directory is held by another running process (the portal, usually). */
export class EmbeddedDatabaseInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(`the embedded database in ${dataDir} is in use by process ${pid}; use DATABASE_URL (PostgreSQL) to run several instances`);
    this.name = 'EmbeddedDatabaseInUseError';
  }
}

/**
 * The embedded database's memory (docs/performance.md, "Memory of the embedded database"). PGlite
 * runs PostgreSQL in one WebAssembly memory that grows and is never given back, so what PostgreSQL
 * may fill is what the process keeps: its defaults (shared_buffers 128 MB, maintenance_work_mem
 * 64 MB) are sized for a server of its own. Files are read through the operating system, whose page
 * cache keeps hot tables without counting in the portal's memory, so small buffers cost little.
 */
export const PGLITE_SETTINGS = { shared_buffers: '16MB', maintenance_work_mem: '16MB', temp_buffers: '4MB', work_mem: '4MB' };
const PGLITE_START_PARAMS = [...PGlite.defaultStartParams, ...Object.entries(PGLITE_SETTINGS).flatMap(([k, v]) => ['-c', `${k}=${v}`])];

/**
 * Create a new embedded database directory in a process of its own. PGlite runs initdb in a second
 * WebAssembly instance and copies the new cluster through memory; in the portal's process that left
 * ~300 MB behind for good (measured: 520 MB at idle after a first start, against 280 MB after a
 * restart on the same directory). A short-lived child takes that cost and gives it back.
 */
async function initEmbeddedDataDir(dataDir: string): Promise<void> {
  const pglite = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const script = `const { PGlite } = require(${JSON.stringify(pglite)});
PGlite.create({ dataDir: process.argv[1] }).then((db) => db.close()).catch((err) => { console.error(err); process.exit(1); });`;
  try {
    await promisify(execFile)(process.execPath, ['-e', script, dataDir], { timeout: 120_000 });
  } catch (err) {
    const stderr = (err as { stderr?: string }).stderr?.trim();
    throw new Error(`could not create the embedded database in ${dataDir}${stderr ? `: ${stderr.split('\n')[0]}` : ''}`, { cause: err });
  }
}

/**
 * An embedded database belongs to one process: a second instance on the same DATA_DIR would
 * corrupt it. Take a lock file holding our pid; a stale one (its process gone) is taken over.
 */
function lockDataDir(lockFile: string): () => void {
  const take = () => writeFileSync(lockFile, String(process.pid), { flag: 'wx' });
  try {
    take();
  } catch {
    const holder = Number(readFileSync(lockFile, 'utf8'));
    let alive = false;
    if (Number.isInteger(holder) && holder > 0 && holder !== process.pid) {
      try {
        process.kill(holder, 0);
        alive = true;
      } catch {
        alive = false;
      }
    }
    if (alive) throw new EmbeddedDatabaseInUseError(lockFile.replace(/pglite\.lock$/, ''), holder);
    rmSync(lockFile, { force: true });
    take();
  }
  return () => rmSync(lockFile, { force: true });
}
