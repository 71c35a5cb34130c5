import type { NotifyChannel, Queryable } from '../db/client.js';

/**
 * The statements every outbox shares (worker.ts): taking the due rows, the time until the next one
 * is due, waking the senders. Each kind's table has the outbox's columns (id, state with 'pending',
 * attempts, next_attempt_at); the kind describes it with an OutboxTable, built from constants only.
 */
export interface OutboxTable {
  /** the FROM clause: the outbox table under `alias`, and what it joins (webhooks: the webhook's url and secret) */
  from: string;
  /** the alias of the outbox table in `from` (its rows are the ones locked) */
  alias: string;
  /** the select list of a due row */
  columns: string;
  /** a column no two runners of one process send to at once (webhooks: the webhook), or none */
  keyColumn?: string;
  /** a further condition on the rows (the shared outbox table: its kind) */
  where?: string;
}

/**
 * Up to `limit` due pending rows, oldest first, locked for the caller's transaction; rows another
 * transaction holds (another instance or runner sending them) are skipped, and so are the rows
 * `excluded` (those this process is sending where no transaction holds them: PGlite) and those of
 * the keys `busy` (this process is sending to them already).
 */
export async function claimDue<R extends object>(
  db: Queryable,
  table: OutboxTable,
  limit: number,
  excluded: readonly string[],
  busy: readonly string[],
): Promise<R[]> {
  const a = table.alias;
  const { rows } = await db.query<R>(
    `SELECT ${table.columns} FROM ${table.from}
     WHERE ${a}.state = 'pending' AND ${a}.next_attempt_at <= now() ${table.where ? `AND ${table.where}` : ''}
       AND NOT (${a}.id = ANY($2::uuid[])) ${table.keyColumn ? `AND NOT (${table.keyColumn}::text = ANY($3::text[]))` : 'AND $3::text[] IS NOT NULL'}
     ORDER BY ${a}.next_attempt_at
     LIMIT $1
     FOR UPDATE OF ${a} SKIP LOCKED`,
    [limit, excluded, busy],
  );
  return rows;
}

/** Milliseconds until the next pending row is due (0: one is due now), or null when none is pending. */
export async function msUntilNextDue(db: Queryable, table: OutboxTable): Promise<number | null> {
  const { rows } = await db.query<{ ms: number | null }>(
    `SELECT greatest(0, (extract(epoch FROM min(${table.alias}.next_attempt_at) - clock_timestamp()) * 1000))::int AS ms
     FROM ${table.from} WHERE ${table.alias}.state = 'pending' ${table.where ? `AND ${table.where}` : ''}`,
  );
  return rows[0]?.ms ?? null;
}

/** Wake the senders of every instance: in a transaction, when it commits. */
export async function notifySenders(db: Queryable, channel: NotifyChannel): Promise<void> {
  await db.query(`SELECT pg_notify('${channel}', '')`);
}
