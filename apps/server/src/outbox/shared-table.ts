import type { NotifyChannel, Queryable } from '../db/client.js';
import type { OutboxTable } from './queries.js';
import type { Outcome, OutboxRow } from './worker.js';

/**
 * The shared outbox table, keyed by kind (migration 0076): the kinds without a table of their own
 * (back-channel logouts) write their rows here with `enqueue`, in the transaction of the change,
 * and give the worker `sharedTable(kind)` and `recordSharedOutcomes`; their deliverer is all that
 * is theirs.
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

/** The hourly job (jobs.ts): finished rows older than `days` removed, a batch per statement. Returns how many. */
export async function sweepFinishedOutbox(db: Queryable, days: number): Promise<number> {
  let total = 0;
  for (;;) {
    const { rowCount } = await db.query(
      `DELETE FROM outbox WHERE id IN (SELECT id FROM outbox WHERE completed_at < now() - make_interval(days => $1) LIMIT $2)`,
      [days, SWEEP_BATCH],
    );
    total += rowCount;
    if (rowCount < SWEEP_BATCH) return total;
  }
}
