import type { AuditStreamKind } from '@partner-portal/contracts';
import type { Queryable } from '../../db/client.js';
import { subtreeCondition } from '../../db/sql.js';
import type { OutboxTable } from '../../outbox/queries.js';
import { OUTBOX_CHANNEL } from '../../outbox/queries.js';
import type { Outcome } from '../../outbox/worker.js';
import { AUDIT_STREAM_KIND } from '../audit/queries.js';

/**
 * SQL of audit streams (migration 0079): the streams, and their rows of the shared outbox (kind
 * 'audit_stream', payload {stream_id, entry_id, seq}), which the audit entry's own INSERT writes
 * (modules/audit/queries.ts, insertAuditEntry).
 */

export interface AuditStreamRow {
  id: string;
  organization_id: string;
  kind: AuditStreamKind;
  url: string;
  description: string | null;
  paused: boolean;
  failing: boolean;
  last_delivered_at: Date | string | null;
  last_error: string | null;
  created_at: Date | string;
}

const STREAM_COLUMNS = 'id, organization_id, kind, url, description, paused, failing, last_delivered_at, last_error, created_at';

export async function listStreams(db: Queryable, organizationId: string): Promise<AuditStreamRow[]> {
  const { rows } = await db.query<AuditStreamRow>(
    `SELECT ${STREAM_COLUMNS} FROM audit_streams WHERE organization_id = $1 ORDER BY created_at, id`,
    [organizationId],
  );
  return rows;
}

/** A stream of the organization (null when unknown or another organization's), its row locked for the caller's transaction. */
export async function findStreamForUpdate(db: Queryable, organizationId: string, streamId: string): Promise<AuditStreamRow | null> {
  const { rows } = await db.query<AuditStreamRow>(
    `SELECT ${STREAM_COLUMNS} FROM audit_streams WHERE id = $1 AND organization_id = $2 FOR NO KEY UPDATE`,
    [streamId, organizationId],
  );
  return rows[0] ?? null;
}

export async function insertStream(
  db: Queryable,
  s: {
    organizationId: string;
    kind: AuditStreamKind;
    url: string;
    description: string | null;
    tokenSealed: string | null;
    secretSealed: string | null;
    createdBy: string;
  },
): Promise<AuditStreamRow> {
  const { rows } = await db.query<AuditStreamRow>(
    `INSERT INTO audit_streams (organization_id, kind, url, description, token_sealed, secret_sealed, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${STREAM_COLUMNS}`,
    [s.organizationId, s.kind, s.url, s.description, s.tokenSealed, s.secretSealed, s.createdBy],
  );
  return rows[0]!;
}

/** Change a stream; a token of null keeps the sealed one. Resuming wakes the senders at commit. */
export async function updateStream(
  db: Queryable,
  id: string,
  s: { url: string; description: string | null; paused: boolean; tokenSealed: string | null },
): Promise<AuditStreamRow> {
  const { rows } = await db.query<AuditStreamRow>(
    `UPDATE audit_streams SET url = $2, description = $3, paused = $4, token_sealed = coalesce($5, token_sealed), updated_at = now()
     WHERE id = $1 RETURNING ${STREAM_COLUMNS}`,
    [id, s.url, s.description, s.paused, s.tokenSealed],
  );
  await notifySenders(db);
  return rows[0]!;
}

/** Delete a stream and its rows of the outbox, sent or not (a row being sent is waited for). */
export async function deleteStream(db: Queryable, id: string): Promise<void> {
  await db.query(`DELETE FROM outbox WHERE kind = '${AUDIT_STREAM_KIND}' AND payload->>'stream_id' = $1::text`, [id]);
  await db.query('DELETE FROM audit_streams WHERE id = $1', [id]);
}

/**
 * The pending rows of streams that no longer exist — deleted with their organization (ON DELETE
 * CASCADE), or deleted while a change wrote an entry for them — removed; no lane takes them (the
 * lane joins the streams). The hourly job (jobs.ts). Returns how many.
 */
export async function sweepOrphanRows(db: Queryable): Promise<number> {
  const { rowCount } = await db.query(
    `DELETE FROM outbox o WHERE o.kind = '${AUDIT_STREAM_KIND}' AND o.state = 'pending'
       AND NOT EXISTS (SELECT 1 FROM audit_streams s WHERE s.id = (o.payload->>'stream_id')::uuid)`,
  );
  return rowCount;
}

/**
 * Queue again every entry of the subtree at `path` from `from` on (its audit trail's: with what its
 * members did in support sessions elsewhere), oldest first, after the rows
 * of the stream that are pending (their `seq` is higher). Returns how many; wakes the senders at commit.
 */
export async function queueReplay(db: Queryable, streamId: string, path: string, from: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `WITH entries AS (
       SELECT id FROM audit_log
       WHERE (${subtreeCondition('organization_path', '$2')} OR ${subtreeCondition('supporter_organization_path', '$2')})
         AND occurred_at >= $3::timestamptz
       ORDER BY id
     ), written AS (
       INSERT INTO outbox (kind, payload)
       SELECT '${AUDIT_STREAM_KIND}', jsonb_build_object('stream_id', $1::uuid, 'entry_id', e.id, 'seq', nextval('audit_stream_outbox_seq'))
       FROM entries e
       RETURNING 1
     )
     SELECT count(*)::int AS n FROM written`,
    [streamId, path, from],
  );
  const n = rows[0]?.n ?? 0;
  if (n > 0) await notifySenders(db);
  return n;
}

async function notifySenders(db: Queryable): Promise<void> {
  await db.query(`SELECT pg_notify('${OUTBOX_CHANNEL}', '')`);
}

// ---- the worker ----------------------------------------------------------------------------------

/** The head of a stream as the worker takes it: the oldest pending row, with what sending needs. */
export interface StreamHead {
  id: string;
  attempts: number;
  stream_id: string;
  entry_id: string;
  seq: string;
  stream_kind: AuditStreamKind;
  url: string;
  token_sealed: string | null;
  secret_sealed: string | null;
}

const SEQ = (alias: string) => `(${alias}.payload->>'seq')::bigint`;

/**
 * The rows as the outbox's worker takes them (outbox/queries.ts): of each stream that is not
 * paused, only the oldest pending row (its head), so that later entries wait behind a failing one
 * (head-of-line); never two of a stream at once (its key).
 */
export const HEAD_TABLE: OutboxTable = {
  from: `outbox o JOIN audit_streams s ON s.id = (o.payload->>'stream_id')::uuid AND NOT s.paused`,
  alias: 'o',
  columns: `o.id, o.attempts, o.payload->>'stream_id' AS stream_id, o.payload->>'entry_id' AS entry_id, o.payload->>'seq' AS seq,
            s.kind AS stream_kind, s.url, s.token_sealed, s.secret_sealed`,
  keyColumn: `(o.payload->>'stream_id')`,
  where: `o.kind = '${AUDIT_STREAM_KIND}' AND ${SEQ('o')} = (
            SELECT min(${SEQ('h')}) FROM outbox h
            WHERE h.kind = '${AUDIT_STREAM_KIND}' AND h.state = 'pending' AND h.payload->>'stream_id' = o.payload->>'stream_id')`,
};

/** The pending rows that follow a stream's head, in order (sent with it in one request where the receiver takes batches). */
export async function listFollowing(
  db: Queryable,
  head: { stream_id: string; seq: string },
  limit: number,
): Promise<{ id: string; entry_id: string }[]> {
  if (limit <= 0) return [];
  const { rows } = await db.query<{ id: string; entry_id: string }>(
    `SELECT o.id, o.payload->>'entry_id' AS entry_id FROM outbox o
     WHERE o.kind = '${AUDIT_STREAM_KIND}' AND o.state = 'pending' AND o.payload->>'stream_id' = $1::text AND ${SEQ('o')} > $2::bigint
     ORDER BY ${SEQ('o')} LIMIT $3`,
    [head.stream_id, head.seq, limit],
  );
  return rows;
}

/** What one attempt of a head did: the rows after it sent with it, the time of the last entry delivered. */
export interface HeadDetail {
  alsoDelivered: string[];
  lastEntryAt: string | null;
}

/**
 * Write a batch of outcomes in the claim's transaction: each head's new state (delivered, or its
 * next attempt; `attemptsCap` keeps its count within the schedule, so that a stream never gives up),
 * the rows sent with it delivered, and each stream's state (failing with the error, or active with
 * the time of the last entry delivered).
 */
export async function recordOutcomes(
  db: Queryable,
  outcomes: readonly Outcome<StreamHead, HeadDetail>[],
  attemptsCap: number,
): Promise<void> {
  if (!outcomes.length) return;
  // one statement: the heads, the rows sent with them, the streams
  await db.query(
    `WITH r AS (
       SELECT * FROM unnest($1::uuid[], $2::text[], $3::timestamptz[], $4::text[], $5::float8[]) AS r(id, state, attempted_at, error, retry_in)
     ), heads AS (
       UPDATE outbox o
       SET state = r.state, attempts = least(o.attempts + 1, $6::int), last_attempt_at = r.attempted_at, last_error = coalesce(r.error, o.last_error),
           next_attempt_at = CASE WHEN r.state = 'pending' THEN clock_timestamp() + make_interval(secs => r.retry_in) ELSE o.next_attempt_at END,
           completed_at = CASE WHEN r.state = 'pending' THEN NULL ELSE clock_timestamp() END
       FROM r WHERE o.id = r.id
       RETURNING 1
     ), followers AS (
       UPDATE outbox SET state = 'delivered', attempts = attempts + 1, last_attempt_at = clock_timestamp(), completed_at = clock_timestamp()
       WHERE id = ANY($7::uuid[]) AND state = 'pending'
       RETURNING 1
     ), s AS (
       SELECT * FROM unnest($8::uuid[], $9::boolean[], $10::text[], $11::timestamptz[]) AS s(id, ok, error, last_entry_at)
     ), streams AS (
       UPDATE audit_streams a
       SET failing = NOT s.ok, last_error = coalesce(s.error, a.last_error),
           last_delivered_at = CASE WHEN s.ok THEN coalesce(s.last_entry_at, a.last_delivered_at) ELSE a.last_delivered_at END
       FROM s WHERE a.id = s.id
       RETURNING 1
     )
     SELECT (SELECT count(*) FROM heads) + (SELECT count(*) FROM followers) + (SELECT count(*) FROM streams) AS n`,
    [
      outcomes.map((o) => o.row.id),
      outcomes.map((o) => (o.state === 'pending' ? 'pending' : o.state === 'failed' ? 'failed' : 'delivered')),
      outcomes.map((o) => o.attemptedAt.toISOString()),
      outcomes.map((o) => o.error),
      outcomes.map((o) => o.retryInSeconds ?? 0),
      attemptsCap,
      outcomes.flatMap((o) => (o.state === 'delivered' ? (o.detail?.alsoDelivered ?? []) : [])),
      outcomes.map((o) => o.row.stream_id),
      outcomes.map((o) => o.state === 'delivered'),
      outcomes.map((o) => (o.state === 'delivered' ? null : o.error)),
      outcomes.map((o) => o.detail?.lastEntryAt ?? null),
    ],
  );
}
