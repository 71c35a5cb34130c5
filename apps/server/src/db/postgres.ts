import pg from 'pg';
import {
  answers,
  POOL_NOTIFY_CHANNELS,
  type DatabaseOptions,
  type ListenOptions,
  type NotificationHandler,
  type NotifyChannel,
  type Database,
  type Queryable,
  type Tx,
} from './database.js';
import { PREPARED_STATEMENTS } from './statements.js';

/** PostgreSQL through a pg pool (DATABASE_URL): every instance of the portal shares it. */

// DATE, TIMESTAMP and TIMESTAMPTZ as ISO strings; bigint counts as numbers.
pg.types.setTypeParser(20, (v) => Number(v));

export function openPostgres(url: string, options: DatabaseOptions): Database {
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
    await client.query(`SET jit = off; ${POOL_NOTIFY_CHANNELS.map((c) => `LISTEN ${c}`).join('; ')}`);
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
    ping: () => answers(pool),
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
