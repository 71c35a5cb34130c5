/** The database's interface, the same for PostgreSQL and the embedded PGlite. */

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
  withAdvisoryLock<T>(lockKey: number, fn: (locked: Queryable) => Promise<T>): Promise<T>;
  ping(): Promise<boolean>;
  /** Connections of this instance (metrics): open, idle, and requests waiting for one. */
  poolStats(): { total: number; idle: number; waiting: number };
  /**
   * Receive the NOTIFY messages of one of NOTIFY_CHANNELS. `own` marks a message sent by the very
   * connection that delivered it: on PostgreSQL every pool connection listens too (on
   * POOL_NOTIFY_CHANNELS), so a change made through this instance arrives before the statement (or
   * COMMIT) that made it returns. With
   * `dedicated`, a connection of its own listens all the time (changes made anywhere), reconnecting
   * after a loss; `onState` tells when it listens and when it lost its connection. Returns a stop function.
   */
  listen(channel: NotifyChannel, handler: NotificationHandler, options?: ListenOptions): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/**
 * The channels the portal notifies on: the session cache's triggers (migration 0050) and the
 * outbox's lanes (one table, outbox/queries.ts; a lane per channel): webhook deliveries (a change
 * that wrote deliveries wakes the senders: modules/webhooks/outbox.ts), e-mails (a written e-mail
 * wakes the senders: modules/mail/mailer.ts), and the other kinds (back-channel logouts, password
 * reset requests, audit streams: outbox/queries.ts).
 */
export const NOTIFY_CHANNELS = ['pp_session_cache', 'pp_webhooks', 'pp_mail', 'pp_outbox'] as const;
export type NotifyChannel = (typeof NOTIFY_CHANNELS)[number];
/**
 * The channels every pool connection of PostgreSQL listens on too (read-your-writes of the session
 * cache); the others are heard only on a dedicated connection (`listen(…, { dedicated: true })`).
 */
export const POOL_NOTIFY_CHANNELS: readonly NotifyChannel[] = ['pp_session_cache'];
export type NotificationHandler = (payload: string, own: boolean) => void;
export interface ListenOptions {
  dedicated?: boolean;
  onState?: (listening: boolean) => void;
  /** wait before reconnecting a lost dedicated connection (ms; default 1000) */
  reconnectDelayMs?: number;
}

export interface DatabaseOptions {
  databaseUrl?: string | undefined;
  dataDir?: string | undefined;
  /** embedded database in memory (tests) */
  inMemory?: boolean;
  poolSize?: number;
  onError?: (err: Error) => void;
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

/** Whether the database answers a trivial statement (Database.ping). */
export async function answers(db: { query(text: string): Promise<unknown> }): Promise<boolean> {
  try {
    await db.query('SELECT 1');
    return true;
  } catch {
    return false;
  }
}
