import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import v8 from 'node:v8';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

/** Something that answers SQL: the database, or a transaction on it. */
export interface Queryable {
  query<T extends object = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<{ rows: T[]; rowCount: number }>;
}

/** A transaction: SQL over the one connection that holds it. */
export type Tx = Queryable;

export interface Database extends Queryable {
  readonly kind: 'postgres' | 'pglite';
  /** Run fn in one transaction; rolled back when it throws. */
  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  /** Run fn holding a PostgreSQL advisory lock (used for migrations and bootstrap). */
  withAdvisoryLock<T>(lockKey: number, fn: (q: Queryable) => Promise<T>): Promise<T>;
  ping(): Promise<boolean>;
  /** Connections of this instance (metrics): open, idle, and requests waiting for one. */
  poolStats(): { total: number; idle: number; waiting: number };
  /**
   * Receive the NOTIFY messages of one of NOTIFY_CHANNELS. `own` marks a message sent by the very
   * connection that delivered it: on PostgreSQL every pool connection listens too, so a change made
   * through this instance arrives before the statement (or COMMIT) that made it returns. With
   * `dedicated`, a connection of its own listens all the time (changes made anywhere), reconnecting
   * after a loss; `onState` tells when it listens and when it lost its connection. Returns a stop function.
   */
  listen(channel: NotifyChannel, handler: NotificationHandler, options?: ListenOptions): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** The channels the portal's own triggers notify on (migration 0050). */
export const NOTIFY_CHANNELS = ['pp_session_cache'] as const;
export type NotifyChannel = (typeof NOTIFY_CHANNELS)[number];
export type NotificationHandler = (payload: string, own: boolean) => void;
export interface ListenOptions {
  dedicated?: boolean;
  onState?: (listening: boolean) => void;
  /** wait before reconnecting a lost dedicated connection (ms; default 1000) */
  reconnectDelayMs?: number;
}

// DATE, TIMESTAMP and TIMESTAMPTZ as ISO strings; bigint counts as numbers.
pg.types.setTypeParser(20, (v) => Number(v));

const PREPARED_STATEMENTS = new Map<string, string>();

/**
 * Mark the text of a hot, fixed statement (run on nearly every request) to be prepared once per
 * PostgreSQL connection and then executed by name: it is parsed and planned once instead of on every
 * call. Only for statements whose best plan does not depend on their parameters' values. PGlite runs
 * it as any other statement. Returns the text.
 */
export function preparedStatement(name: string, text: string): string {
  PREPARED_STATEMENTS.set(text, name);
  return text;
}

/**
 * preparedStatement for a hot statement put together from a few fixed parts (db/sql.ts
 * withAlongside): each of its variants, a bounded number, is named on its first use.
 */
export function preparedVariant(prefix: string, text: string): string {
  if (!PREPARED_STATEMENTS.has(text)) PREPARED_STATEMENTS.set(text, `${prefix}-${PREPARED_STATEMENTS.size}`);
  return text;
}

export interface DatabaseOptions {
  databaseUrl?: string | undefined;
  dataDir?: string | undefined;
  /** embedded database in memory (tests) */
  inMemory?: boolean;
  poolSize?: number;
  onError?: (err: Error) => void;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.databaseUrl ? openPostgres(options.databaseUrl, options) : openPglite(options);
}

function openPostgres(url: string, options: DatabaseOptions): Database {
  const handlers = new Map<string, Set<NotificationHandler>>();
  const deliver = (channel: string, payload: string, own: boolean) => {
    for (const handler of handlers.get(channel) ?? []) handler(payload, own);
  };
  // Awaited by the pool before a connection's first use (pg-pool 3.14 awaits a returned promise;
  // @types/pg still types the hook as returning nothing): no query is queued behind it, and a
  // connection that could not set itself up is not handed out. What it sets up: see below.
  const setUpConnection = async (client: pg.ClientBase): Promise<void> => {
    client.on('notification', (msg) =>
      deliver(msg.channel, msg.payload ?? '', msg.processId === (client as unknown as { processID: number }).processID),
    );
    await client.query(`SET jit = off; ${NOTIFY_CHANNELS.map((c) => `LISTEN ${c}`).join('; ')}`);
  };
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: 5000,
    idleTimeoutMillis: 30000,
    statement_timeout: 30000,
    application_name: 'partner-portal',
    // eslint-disable-next-line @typescript-eslint/no-misused-promises -- pg-pool awaits it (above)
    onConnect: setUpConnection,
  });
  // An idle client losing its connection (database restart) must not crash the process.
  pool.on('error', (err) => options.onError?.(err));
  // No JIT compilation: the planner's row estimates for whole-subtree reads (tree, search, export
  // of 10,000 organizations) pass jit_above_cost, and compiling then costs more than the query
  // (measured 25 ms of JIT for a 110 ms tree query). A SET, not a startup option, so that a
  // connection pooler in between accepts it.
  // Every pool connection also listens on the portal's channels: PostgreSQL hands a connection its
  // own notifications at commit, before the answer to the statement, so a change made through this
  // instance is known here before the request that made it goes on (read-your-writes).
  const query: Queryable['query'] = async (text, params) => {
    const name = PREPARED_STATEMENTS.get(text);
    const result = await (name ? pool.query({ name, text, values: params as unknown[] }) : pool.query(text, params as unknown[]));
    return { rows: result.rows as never[], rowCount: result.rowCount ?? 0 };
  };
  return {
    kind: 'postgres',
    query,
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const tx: Tx = {
          async query(text, params) {
            const result = await client.query(text, params as unknown[]);
            return { rows: result.rows as never[], rowCount: result.rowCount ?? 0 };
          },
        };
        const value = await fn(tx);
        await client.query('COMMIT');
        return value;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        client.release();
      }
    },
    async withAdvisoryLock(lockKey, fn) {
      const client = await pool.connect();
      try {
        await client.query('SELECT pg_advisory_lock($1)', [lockKey]);
        try {
          return await fn({
            async query(text, params) {
              const result = await client.query(text, params as unknown[]);
              return { rows: result.rows as never[], rowCount: result.rowCount ?? 0 };
            },
          });
        } finally {
          await client.query('SELECT pg_advisory_unlock($1)', [lockKey]).catch(() => undefined);
        }
      } finally {
        client.release();
      }
    },
    async ping() {
      try {
        await pool.query('SELECT 1');
        return true;
      } catch {
        return false;
      }
    },
    poolStats() {
      return { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount };
    },
    async listen(channel, handler, listenOptions = {}) {
      const set = handlers.get(channel) ?? new Set();
      handlers.set(channel, set.add(handler));
      const stopDedicated = listenOptions.dedicated ? dedicatedListener(url, channel, handler, listenOptions, options.onError) : undefined;
      return async () => {
        set.delete(handler);
        await stopDedicated?.();
      };
    },
    async close() {
      await pool.end();
    },
  };
}

/**
 * One connection that LISTENs on a channel for as long as the portal runs; after a loss it reports
 * onState(false) and reconnects every reconnectDelayMs until it listens again.
 */
function dedicatedListener(
  url: string,
  channel: NotifyChannel,
  handler: NotificationHandler,
  options: ListenOptions,
  onError: ((err: Error) => void) | undefined,
): () => Promise<void> {
  let stopped = false;
  let client: pg.Client | undefined;
  let timer: NodeJS.Timeout | undefined;
  const lost = (err?: Error) => {
    if (err) onError?.(err);
    const dead = client;
    client = undefined;
    dead?.removeAllListeners();
    dead?.on('error', () => undefined);
    void dead?.end().catch(() => undefined);
    options.onState?.(false);
    if (!stopped && !timer) timer = setTimeout(connect, options.reconnectDelayMs ?? 1000);
  };
  const connect = () => {
    timer = undefined;
    if (stopped) return;
    const c = new pg.Client({ connectionString: url, application_name: 'partner-portal-listen', connectionTimeoutMillis: 5000 });
    client = c;
    c.on('notification', (msg) => handler(msg.payload ?? '', false));
    c.on('error', (err) => lost(err));
    c.on('end', () => client === c && lost());
    c.connect()
      .then(() => c.query(`LISTEN ${channel}`))
      .then(() => {
        if (client === c && !stopped) options.onState?.(true);
      })
      .catch((err: unknown) => client === c && lost(err instanceof Error ? err : new Error(String(err))));
  };
  connect();
  return async () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    const c = client;
    client = undefined;
    c?.removeAllListeners();
    c?.on('error', () => undefined);
    await c?.end().catch(() => undefined);
  };
}

async function openPglite(options: DatabaseOptions): Promise<Database> {
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
    async ping() {
      try {
        await db.query('SELECT 1');
        return true;
      } catch {
        return false;
      }
    },
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

/**
 * An open transaction seen as a Database: `transaction(fn)` runs fn inside it instead of opening a
 * new one. Lets a call that makes its own transaction (one member's removal) be one step of a
 * larger all-or-nothing change (a bulk removal).
 */
export function joinTransaction(tx: Tx, db: Database): Database {
  return {
    kind: db.kind,
    query: (text, params) => tx.query(text, params),
    transaction: (fn) => fn(tx),
    withAdvisoryLock: () => Promise.reject(new Error('advisory locks are taken outside a transaction')),
    ping: () => db.ping(),
    poolStats: () => db.poolStats(),
    listen: (channel, handler, options) => db.listen(channel, handler, options),
    close: () => Promise.reject(new Error('a joined transaction cannot close the database')),
  };
}
