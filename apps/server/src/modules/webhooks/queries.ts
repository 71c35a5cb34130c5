import type { WebhookDeliveryState } from '@partner-portal/contracts';
import type { NotifyChannel, Queryable } from '../../db/client.js';
import { notifySenders as notifyOutbox, type OutboxTable } from '../../outbox/queries.js';
import type { Outcome } from '../../outbox/worker.js';

/**
 * SQL of webhooks: the subscriptions, their deliveries (kind 'webhook' of the outbox table,
 * migration 0082: the webhook in webhook_id, payload {event_type, organization_id, body}; state
 * 'delivered' is the API's 'succeeded'), and every attempt.
 */

/** The outbox kind of webhook deliveries. */
export const WEBHOOK = 'webhook';

export interface WebhookRow {
  id: string;
  organization_id: string;
  url: string;
  events: string[];
  description: string | null;
  /** the service account that made it and that it ends with (migration 0073); null: a person's */
  service_account_id: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

const WEBHOOK_COLUMNS = 'id, organization_id, url, events, description, service_account_id, created_at, updated_at';

export async function listWebhooks(db: Queryable, organizationId: string): Promise<WebhookRow[]> {
  const { rows } = await db.query<WebhookRow>(
    `SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE organization_id = $1 ORDER BY created_at, id`,
    [organizationId],
  );
  return rows;
}

/**
 * A webhook of the organization (null when unknown or another organization's), its row locked when
 * `lock` says so: 'update' to delete it, 'change' to change it (which lets events be recorded for
 * it meanwhile: their delivery rows only take a key-share lock).
 */
export async function findWebhook(
  db: Queryable,
  organizationId: string,
  webhookId: string,
  lock: 'update' | 'change' | null = null,
): Promise<WebhookRow | null> {
  const locking = lock === 'update' ? ' FOR UPDATE' : lock === 'change' ? ' FOR NO KEY UPDATE' : '';
  const { rows } = await db.query<WebhookRow>(`SELECT ${WEBHOOK_COLUMNS} FROM webhooks WHERE id = $1 AND organization_id = $2${locking}`, [
    webhookId,
    organizationId,
  ]);
  return rows[0] ?? null;
}

export async function insertWebhook(
  db: Queryable,
  w: {
    organizationId: string;
    url: string;
    events: string[];
    description: string | null;
    secretSealed: string;
    createdBy: string | null;
    serviceAccountId: string | null;
  },
): Promise<WebhookRow> {
  const { rows } = await db.query<WebhookRow>(
    `INSERT INTO webhooks (organization_id, url, events, description, secret_sealed, created_by, service_account_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${WEBHOOK_COLUMNS}`,
    [w.organizationId, w.url, w.events, w.description, w.secretSealed, w.createdBy, w.serviceAccountId],
  );
  return rows[0]!;
}

/**
 * Whether the service account still exists, its row held (FOR KEY SHARE) until the caller's
 * transaction ends: a deletion of the account waits for the webhook it makes, and then takes it
 * along; a webhook made after the deletion finds no account.
 */
export async function holdServiceAccount(db: Queryable, serviceAccountId: string): Promise<boolean> {
  const { rowCount } = await db.query('SELECT 1 FROM service_accounts WHERE id = $1 FOR KEY SHARE', [serviceAccountId]);
  return rowCount > 0;
}

export async function updateWebhook(
  db: Queryable,
  id: string,
  w: { url: string; events: string[]; description: string | null },
): Promise<WebhookRow> {
  const { rows } = await db.query<WebhookRow>(
    `UPDATE webhooks SET url = $2, events = $3, description = $4, updated_at = now() WHERE id = $1 RETURNING ${WEBHOOK_COLUMNS}`,
    [id, w.url, w.events, w.description],
  );
  return rows[0]!;
}

export async function deleteWebhook(db: Queryable, id: string): Promise<void> {
  await db.query('DELETE FROM webhooks WHERE id = $1', [id]);
}

// ---- the outbox ----------------------------------------------------------------------------------

/**
 * One delivery row per subscription that hears the event: a webhook of the organization at one of
 * `paths` (the event's organization and its ancestors) naming the event or "*". Returns how many.
 */
export async function insertDeliveries(
  tx: Queryable,
  event: { type: string; organizationId: string; paths: string[]; payload: string },
): Promise<number> {
  const { rows } = await tx.query<{ n: number }>(
    `WITH written AS (
       INSERT INTO outbox (kind, webhook_id, payload)
       SELECT '${WEBHOOK}', w.id, jsonb_build_object('event_type', $1::text, 'organization_id', $2::uuid, 'body', $3::text)
       FROM organizations o JOIN webhooks w ON w.organization_id = o.id
       WHERE o.path = ANY($4::text[]) AND (w.events @> ARRAY[$1::text] OR w.events @> ARRAY['*'])
       RETURNING 1)
     SELECT count(*)::int AS n FROM written`,
    [event.type, event.organizationId, event.payload, event.paths],
  );
  return rows[0]?.n ?? 0;
}

/** A member as member events carry it, read as stored now, with the organization it belongs to. */
export interface MemberEventRow {
  membership_id: string;
  user_id: string;
  email: string;
  first_name: string;
  last_name: string;
  language_code: string;
  rights: unknown;
  organization_id: string;
  organization_path: string;
}

export async function findMemberForEvent(db: Queryable, userId: string): Promise<MemberEventRow | null> {
  const { rows } = await db.query<MemberEventRow>(
    `SELECT m.id AS membership_id, m.user_id, u.email, u.first_name, u.last_name, u.language_code, m.rights,
            m.organization_id, o.path AS organization_path
     FROM memberships m JOIN users u ON u.id = m.user_id JOIN organizations o ON o.id = m.organization_id
     WHERE m.user_id = $1`,
    [userId],
  );
  return rows[0] ?? null;
}

/** Wake the senders of every instance once the caller's transaction commits (nothing when it rolls back). */
export async function notifySenders(tx: Queryable): Promise<void> {
  await notifyOutbox(tx, WEBHOOK_CHANNEL);
}

/** The channel written deliveries wake the senders on (every instance's). */
export const WEBHOOK_CHANNEL: NotifyChannel = 'pp_webhooks';

// ---- the worker ----------------------------------------------------------------------------------

/** A due delivery with what sending it needs. */
export interface DueDelivery {
  id: string;
  webhook_id: string;
  event_type: string;
  payload: string;
  attempts: number;
  url: string;
  secret_sealed: string;
}

/** The deliveries as the outbox's worker takes them (outbox/queries.ts): with their webhook's url and secret, one runner per webhook. */
export const DELIVERY_TABLE: OutboxTable = {
  from: 'outbox d JOIN webhooks w ON w.id = d.webhook_id',
  alias: 'd',
  columns: `d.id, d.webhook_id, d.payload->>'event_type' AS event_type, d.payload->>'body' AS payload, d.attempts, w.url, w.secret_sealed`,
  keyColumn: 'd.webhook_id',
  where: `d.kind = '${WEBHOOK}'`,
};

/** The outcome of one attempt (outbox/worker.ts), with the answer's status and how long it took. */
export type AttemptOutcome = Outcome<DueDelivery, { status: number | null; durationMs: number }>;

const STATE_OF = { pending: 'pending', delivered: 'delivered', failed: 'failed', kept: 'failed' } as const;

/**
 * Write a batch of attempts in one statement: each attempt's row, and its delivery's new state
 * (its next attempt, or finished). A delivery deleted meanwhile (its webhook removed) is left out.
 */
export async function recordAttempts(q: Queryable, outcomes: readonly AttemptOutcome[]): Promise<void> {
  if (!outcomes.length) return;
  await q.query(
    `WITH r AS (
       SELECT * FROM unnest($1::uuid[], $2::timestamptz[], $3::int[], $4::int[], $5::text[], $6::text[], $7::float8[])
         AS r(id, attempted_at, status, duration_ms, error, state, retry_in)
     ), attempts AS (
       INSERT INTO webhook_delivery_attempts (delivery_id, attempted_at, status, duration_ms, error)
       SELECT r.id, r.attempted_at, r.status, r.duration_ms, r.error FROM r JOIN outbox d ON d.id = r.id AND d.kind = '${WEBHOOK}'
     )
     UPDATE outbox d
     SET attempts = d.attempts + 1, state = r.state, last_attempt_at = r.attempted_at, last_error = r.error,
         next_attempt_at = CASE WHEN r.state = 'pending' THEN clock_timestamp() + make_interval(secs => r.retry_in) ELSE d.next_attempt_at END,
         completed_at = CASE WHEN r.state = 'pending' THEN NULL ELSE clock_timestamp() END
     FROM r WHERE d.id = r.id AND d.kind = '${WEBHOOK}'`,
    [
      outcomes.map((o) => o.row.id),
      outcomes.map((o) => o.attemptedAt.toISOString()),
      outcomes.map((o) => o.detail?.status ?? null),
      outcomes.map((o) => Math.round(o.detail?.durationMs ?? 0)),
      outcomes.map((o) => o.error),
      outcomes.map((o) => STATE_OF[o.state]),
      outcomes.map((o) => o.retryInSeconds ?? 0),
    ],
  );
}

// ---- deliveries, as the managers see them ------------------------------------------------------------

export interface DeliveryRow {
  id: string;
  event_type: string;
  organization_id: string;
  state: WebhookDeliveryState;
  attempts: number;
  payload: string;
  created_at: Date | string;
  next_attempt_at: Date | string;
  completed_at: Date | string | null;
}

/** A delivery's row as the managers see it: its payload's fields, its state as the API names it. */
const DELIVERY_COLUMNS = `id, payload->>'event_type' AS event_type, payload->>'organization_id' AS organization_id,
  CASE state WHEN 'delivered' THEN 'succeeded' ELSE state END AS state, attempts, payload->>'body' AS payload,
  created_at, next_attempt_at, completed_at`;

/** The state of the outbox table a state of the API is stored as. */
const STORED_STATE: Record<WebhookDeliveryState, string> = { pending: 'pending', succeeded: 'delivered', failed: 'failed' };

export async function listDeliveries(
  db: Queryable,
  webhookId: string,
  options: { state: WebhookDeliveryState | undefined; limit: number; offset: number },
): Promise<(DeliveryRow & { total: number })[]> {
  const { rows } = await db.query<DeliveryRow & { total: number }>(
    `SELECT ${DELIVERY_COLUMNS}, count(*) OVER ()::int AS total
     FROM outbox WHERE webhook_id = $1 AND kind = '${WEBHOOK}' AND ($2::text IS NULL OR state = $2::text)
     ORDER BY created_at DESC, id
     LIMIT $3 OFFSET $4`,
    [webhookId, options.state ? STORED_STATE[options.state] : null, options.limit, options.offset],
  );
  return rows;
}

export interface AttemptRow {
  delivery_id: string;
  attempted_at: Date | string;
  status: number | null;
  duration_ms: number;
  error: string | null;
}

export async function listAttempts(db: Queryable, deliveryIds: string[]): Promise<AttemptRow[]> {
  if (!deliveryIds.length) return [];
  const { rows } = await db.query<AttemptRow>(
    `SELECT delivery_id, attempted_at, status, duration_ms, error FROM webhook_delivery_attempts
     WHERE delivery_id = ANY($1::uuid[]) ORDER BY delivery_id, id`,
    [deliveryIds],
  );
  return rows;
}

/** A delivery of the webhook, its row locked (waiting while a sender holds it: at most one attempt's time-out). */
export async function findDeliveryForUpdate(db: Queryable, webhookId: string, deliveryId: string): Promise<DeliveryRow | null> {
  const { rows } = await db.query<DeliveryRow>(
    `SELECT ${DELIVERY_COLUMNS} FROM outbox WHERE id = $1 AND webhook_id = $2 AND kind = '${WEBHOOK}' FOR UPDATE`,
    [deliveryId, webhookId],
  );
  return rows[0] ?? null;
}

/** Make a delivery due at once (a redelivery on request). */
export async function makeDue(db: Queryable, deliveryId: string): Promise<void> {
  await db.query(
    `UPDATE outbox SET state = 'pending', next_attempt_at = now(), completed_at = NULL WHERE id = $1 AND kind = '${WEBHOOK}'`,
    [deliveryId],
  );
}
