import type { Queryable } from '../../db/client.js';
import { containsPattern, subtreeCondition } from '../../db/sql.js';
import { OUTBOX_CHANNEL } from '../../outbox/queries.js';

/** A change as the audit log keeps it: what, where (organization id and path), before and after. */
export interface AuditChange {
  organizationId: string | null;
  organizationPath: string | null;
  action: string;
  targetType: string;
  targetId: string | null;
  before?: unknown;
  after?: unknown;
}

/** An entry to write: the change, who made it and in which request. */
export interface AuditEntryInput extends AuditChange {
  /** the actor's kind and id (migration 0077, http/actor.ts): every entry has a kind; a job, or a visitor, has no id */
  actorKind: 'person' | 'service_account' | 'directory' | 'job' | 'support' | 'setup_link';
  actorId: string | null;
  actorUserId: string | null;
  actorEmail: string | null;
  /** a service account that made the change (migration 0070), with its name as actorName */
  actorServiceAccountId?: string | null;
  /** the actor's name when it is no user's (a service account's; a directory's token: "SCIM: <token name>"); a user's is read from their row */
  actorName?: string | null;
  /**
   * The supporter of a change made during a support session (actor_kind 'support', actorId the
   * support session's id, the member as actorUserId and actorEmail): the entry is also in the
   * trail of the supporter's organization (organizationPath, as the session started).
   */
  supporter?: { userId: string | null; email: string; name: string; organizationPath: string | null } | null;
  requestId: string | null;
}

/** A user's name as a sentence shows it ("Julia Weber"), null when they have none. */
const userName = (alias: string) => `nullif(btrim(${alias}.first_name || ' ' || ${alias}.last_name), '')`;

/** The outbox kind of the audit streams' rows (migration 0079; sent by modules/audit-streams/worker.ts). */
export const AUDIT_STREAM_KIND = 'audit_stream';

/**
 * Write an entry, with the names of its actor and of the member it is about as they are now (an
 * actor that is not a session's, such as a user accepting an invitation, is found by id; a
 * service account is named by the caller). In the same statement, and so in the caller's
 * transaction, the entry is queued for every audit stream (migration 0079) of the organizations
 * whose trail holds it: its organization or an ancestor, and its supporter's organization or an
 * ancestor. One outbox row each, in the order of `audit_stream_outbox_seq`, and the outbox's
 * senders woken at commit. Without streams this is one look at the (empty) audit_streams table.
 */
export async function insertAuditEntry(db: Queryable, e: AuditEntryInput): Promise<void> {
  await db.query(
    `WITH entry AS (
       INSERT INTO audit_log (actor_user_id, actor_email, organization_id, organization_path, action, target_type, target_id, before, after, request_id,
                              actor_name, subject_name, actor_service_account_id, actor_kind, actor_id,
                            supporter_user_id, supporter_email, supporter_name, supporter_organization_path)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10,
               COALESCE($11::text, (SELECT ${userName('u')} FROM users u WHERE u.id = $1)),
               CASE WHEN $6 = 'member' THEN
                 (SELECT ${userName('u')} FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.id::text = $7)
               END,
               $12, $13, $14, $15, $16, $17, $18)
       RETURNING id, organization_path, supporter_organization_path
     ), streamed AS (
       INSERT INTO outbox (kind, payload)
       SELECT '${AUDIT_STREAM_KIND}', jsonb_build_object('stream_id', s.id, 'entry_id', e.id, 'seq', nextval('audit_stream_outbox_seq'))
       FROM entry e, audit_streams s JOIN organizations so ON so.id = s.organization_id
       WHERE e.organization_path = so.path OR starts_with(e.organization_path, so.path || '/')
          OR e.supporter_organization_path = so.path OR starts_with(e.supporter_organization_path, so.path || '/')
       RETURNING 1
     )
     SELECT pg_notify('${OUTBOX_CHANNEL}', '') FROM (SELECT 1 FROM streamed LIMIT 1) w`,
    [
      e.actorUserId,
      e.actorEmail,
      e.organizationId,
      e.organizationPath,
      e.action,
      e.targetType,
      e.targetId,
      e.before === undefined ? null : JSON.stringify(e.before),
      e.after === undefined ? null : JSON.stringify(e.after),
      e.requestId,
      e.actorName ?? null,
      e.actorServiceAccountId ?? null,
      e.actorKind,
      e.actorId,
      e.supporter?.userId ?? null,
      e.supporter?.email ?? null,
      e.supporter?.name ?? null,
      e.supporter?.organizationPath ?? null,
    ],
  );
}

export interface AuditRow {
  id: number;
  occurred_at: Date | string;
  actor_user_id: string | null;
  actor_email: string | null;
  actor_service_account_id: string | null;
  organization_id: string | null;
  organization_path: string | null;
  action: string;
  target_type: string;
  target_id: string | null;
  before: unknown;
  after: unknown;
  /** the supporter of an entry made during a support session (migration 0081), else null */
  supporter_email?: string | null;
  supporter_name?: string | null;
  request_id: string | null;
}

/** An entry as the trail lists it: with the names its sentence needs, as they are now (null when gone). */
export interface AuditRowWithNames extends AuditRow {
  actor_name: string | null;
  subject_name: string | null;
  subject_email: string | null;
  organization_name: string | null;
}

/**
 * The names of an entry's actor, subject (a member or an invitation) and organization: those kept
 * when it was written, else as they are now. A removed member's name is that of an earlier entry
 * about them, or of one they made themselves (accepting their invitation, for one).
 */
const ACTOR_NAME = `COALESCE(audit_log.actor_name, (SELECT ${userName('u')} FROM users u WHERE u.id = audit_log.actor_user_id))`;
const AUDIT_NAMES = `
  ${ACTOR_NAME} AS actor_name,
  CASE WHEN audit_log.target_type = 'member' THEN COALESCE(
    audit_log.subject_name,
    (SELECT ${userName('u')} FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.id::text = audit_log.target_id),
    (SELECT a.subject_name FROM audit_log a
      WHERE a.target_type = 'member' AND a.target_id = audit_log.target_id AND a.subject_name IS NOT NULL ORDER BY a.id DESC LIMIT 1),
    CASE WHEN audit_log.action LIKE 'member.remove%' AND audit_log.before->>'user_id' ~ '^[0-9a-f-]{36}$' THEN
      (SELECT a.actor_name FROM audit_log a
        WHERE a.actor_user_id = (audit_log.before->>'user_id')::uuid AND a.actor_name IS NOT NULL ORDER BY a.id DESC LIMIT 1)
    END)
  END AS subject_name,
  CASE
    WHEN audit_log.target_type = 'member' THEN
      (SELECT u.email FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.id::text = audit_log.target_id)
    WHEN audit_log.target_type = 'invitation' THEN (SELECT i.email FROM invitations i WHERE i.id::text = audit_log.target_id)
  END AS subject_email,
  (SELECT o.name FROM organizations o WHERE o.id = audit_log.organization_id) AS organization_name`;

/** The optional filters of an audit listing (see `auditFilterSchema` in packages/contracts). */
export interface AuditEntryFilter {
  action?: string | undefined;
  actor?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

/** WHERE clause and parameters of the subtree at `path`, narrowed by the filters. */
function auditWhere(path: string, filter: AuditEntryFilter): { where: string; params: unknown[] } {
  const params: unknown[] = [path];
  // an organization's trail also holds what its members did as members of other organizations in support sessions
  const conditions = [`(${subtreeCondition('organization_path', '$1')} OR ${subtreeCondition('supporter_organization_path', '$1')})`];
  if (filter.action) {
    params.push(filter.action);
    conditions.push(`(action = $${params.length} OR action = $${params.length} || '.refused')`);
  }
  if (filter.actor) {
    // a person by their e-mail address, a service account by its name
    params.push(containsPattern(filter.actor));
    conditions.push(
      `(lower(actor_email) LIKE $${params.length} OR (actor_service_account_id IS NOT NULL AND lower(actor_name) LIKE $${params.length}))`,
    );
  }
  if (filter.from) {
    params.push(filter.from);
    conditions.push(`occurred_at >= ($${params.length}::date)::timestamp AT TIME ZONE 'UTC'`);
  }
  if (filter.to) {
    params.push(filter.to);
    conditions.push(`occurred_at < ($${params.length}::date + 1)::timestamp AT TIME ZONE 'UTC'`);
  }
  return { where: conditions.join(' AND '), params };
}

const AUDIT_COLUMNS =
  'id, occurred_at, actor_user_id, actor_email, actor_service_account_id, organization_id, organization_path, action, target_type, target_id, before, after, request_id, supporter_email, supporter_name';

export async function listAuditEntries(
  db: Queryable,
  path: string,
  limit: number,
  offset: number,
  filter: AuditEntryFilter = {},
): Promise<{ total: number; rows: AuditRowWithNames[] }> {
  const { where, params } = auditWhere(path, filter);
  const total = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_log WHERE ${where}`, params);
  const { rows } = await db.query<AuditRowWithNames>(
    `SELECT ${AUDIT_COLUMNS}, ${AUDIT_NAMES} FROM audit_log WHERE ${where} ORDER BY occurred_at DESC, id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, limit, offset],
  );
  return { total: total.rows[0]?.n ?? 0, rows };
}

/** Up to `limit` entries of the subtree, newest first, for the CSV export, with the actor's name. */
export async function listAuditEntriesForExport(
  db: Queryable,
  path: string,
  filter: AuditEntryFilter,
  limit: number,
): Promise<(AuditRow & { actor_name: string | null })[]> {
  const { where, params } = auditWhere(path, filter);
  const { rows } = await db.query<AuditRow & { actor_name: string | null }>(
    `SELECT ${AUDIT_COLUMNS}, ${ACTOR_NAME} AS actor_name FROM audit_log WHERE ${where} ORDER BY occurred_at DESC, id DESC LIMIT $${params.length + 1}`,
    [...params, limit],
  );
  return rows;
}

/** The entries of these ids (an audit stream's), with the actor's name as the export shows it. */
export async function listAuditEntriesByIds(db: Queryable, ids: readonly string[]): Promise<(AuditRow & { actor_name: string | null })[]> {
  if (!ids.length) return [];
  const { rows } = await db.query<AuditRow & { actor_name: string | null }>(
    `SELECT ${AUDIT_COLUMNS}, ${ACTOR_NAME} AS actor_name FROM audit_log WHERE id = ANY($1::bigint[])`,
    [ids],
  );
  return rows;
}

/** When an organization's path changes, its audit entries follow (the path column is a search copy). */
export async function moveAuditPaths(db: Queryable, oldPath: string, newPath: string): Promise<void> {
  await db.query(
    `UPDATE audit_log SET organization_path = $2::text || substr(organization_path, length($1::text) + 1) WHERE ${subtreeCondition('organization_path', '$1')}`,
    [oldPath, newPath],
  );
}
