import type { NotifyChannel, Queryable } from '../db/client.js';

/**
 * The statements of the outbox (worker.ts): taking the due rows, the time until the next one is
 * due, waking the senders; writing, recording and sweeping the rows of the kinds that keep all in
 * `payload`. Each kind describes its rows of the table with an OutboxTable, built from constants only.
 */

/** A due row: its id and the attempts it has had. */
export interface OutboxRow {
  id: string;
  attempts: number;
}

/** What became of one row after an attempt, as the kind writes it. */
export interface Outcome<R, D> {
  row: R;
  state: 'pending' | 'delivered' | 'failed' | 'kept';
  attemptedAt: Date;
  error: string | null;
  /** pending: the next attempt after this many seconds */
  retryInSeconds: number | null;
  detail: D | undefined;
}

export interface OutboxTable {
  /** the FROM clause: the outbox table under `alias`, and what it joins (webhooks: the webhook's url and secret) */
  from: string;
  /** the alias of the outbox table in `from` (its rows are the ones locked) */
  alias: string;
  /** the select list of a due row */
  columns: string;
  /** a column no two runners of one process send to at once (webhooks: the webhook), or none */
  keyColumn?: string;
  /** the condition on the rows: their kind */
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

// ---- the outbox table, keyed by kind ----------------------------------------------------------------

/**
 * The one outbox table, keyed by kind (migrations 0076 and 0082). The kinds whose rows are all in
 * `payload` (back-channel logouts, password reset requests, audit-stream entries) write them with
 * `enqueue`, in the transaction of the change, and give the worker `sharedTable(kind)` and
 * `recordSharedOutcomes`; their deliverer is all that is theirs. E-mails and webhook deliveries
 * have their typed columns (recipient, webhook_id) and their own statements in their modules'
 * queries, on the same table.
 */

/** The channel a written row wakes the workers on (every instance's). */
export const OUTBOX_CHANNEL: NotifyChannel = 'pp_outbox';

/** A due row of the shared table: its kind's payload as written. */
export interface SharedRow<P> extends OutboxRow {
  payload: P;
}

/** One kind's rows of the shared table, as the worker takes them; `keyField`: the payload's field no two runners of a process send to at once. */
export function sharedTable(kind: string, keyField?: string): OutboxTable {
  const name = /^[a-z_]+$/;
  if (!name.test(kind) || (keyField !== undefined && !name.test(keyField)))
    throw new Error(`not an outbox kind or field: ${kind}, ${keyField}`);
  return {
    from: 'outbox o',
    alias: 'o',
    columns: 'o.id, o.payload, o.attempts',
    where: `o.kind = '${kind}'`,
    ...(keyField ? { keyColumn: `(o.payload->>'${keyField}')` } : {}),
  };
}

/**
 * Write rows of a kind and wake the workers: in the caller's transaction (the rows and the
 * notification go with its commit, nothing with its rollback) or on their own. One statement.
 */
export async function enqueue(db: Queryable, kind: string, payloads: readonly object[]): Promise<void> {
  if (!payloads.length) return;
  await db.query(
    `WITH written AS (
       INSERT INTO outbox (kind, payload) SELECT $1, p FROM unnest($2::jsonb[]) AS p RETURNING 1
     )
     SELECT pg_notify('${OUTBOX_CHANNEL}', '') FROM (SELECT 1 FROM written LIMIT 1) w`,
    [kind, payloads.map((p) => JSON.stringify(p))],
  );
}

/** Write a batch of outcomes of the shared table in one statement: the next attempt's time, or finished. */
export async function recordSharedOutcomes(db: Queryable, outcomes: readonly Outcome<OutboxRow, unknown>[]): Promise<void> {
  if (!outcomes.length) return;
  await db.query(
    `WITH r AS (
       SELECT * FROM unnest($1::uuid[], $2::text[], $3::timestamptz[], $4::text[], $5::float8[]) AS r(id, state, attempted_at, error, retry_in)
     )
     UPDATE outbox o
     SET state = r.state, attempts = o.attempts + 1, last_attempt_at = r.attempted_at, last_error = coalesce(r.error, o.last_error),
         next_attempt_at = CASE WHEN r.state = 'pending' THEN clock_timestamp() + make_interval(secs => r.retry_in) ELSE o.next_attempt_at END,
         completed_at = CASE WHEN r.state = 'pending' THEN NULL ELSE clock_timestamp() END
     FROM r WHERE o.id = r.id`,
    [
      outcomes.map((o) => o.row.id),
      // nothing of the shared table is kept undelivered (that is the e-mails' development mode)
      outcomes.map((o) => (o.state === 'kept' ? 'delivered' : o.state)),
      outcomes.map((o) => o.attemptedAt.toISOString()),
      outcomes.map((o) => o.error),
      outcomes.map((o) => o.retryInSeconds ?? 0),
    ],
  );
}

const SWEEP_BATCH = 5000;

/**
 * The hourly job (jobs.ts): finished rows older than `days` removed (a webhook delivery with its
 * attempts), a batch per statement; e-mails stay, a record of what was sent. Returns how many.
 */
export async function sweepFinishedOutbox(db: Queryable, days: number): Promise<number> {
  let total = 0;
  for (;;) {
    const { rowCount } = await db.query(
      `DELETE FROM outbox WHERE id IN (
         SELECT id FROM outbox WHERE completed_at < now() - make_interval(days => $1) AND kind <> 'email' LIMIT $2)`,
      [days, SWEEP_BATCH],
    );
    total += rowCount;
    if (rowCount < SWEEP_BATCH) return total;
  }
}
