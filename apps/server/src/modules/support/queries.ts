import type { Queryable } from '../../db/client.js';

/** SQL of support access (an organization's consent) and support sessions (migration 0081). */

/** A setting of support access on the organization or one of its ancestors, root first. */
export interface SupportAccessRow {
  organization_id: string;
  organization_name: string;
  organization_path: string;
  allowed: boolean;
}

/** The settings of support access on the organization at `path` and its ancestors, root first. */
export async function supportAccessAbove(db: Queryable, path: string): Promise<SupportAccessRow[]> {
  const { rows } = await db.query<SupportAccessRow>(
    `SELECT o.id AS organization_id, o.name AS organization_name, o.path AS organization_path, a.allowed
     FROM support_access a JOIN organizations o ON o.id = a.organization_id
     WHERE o.path = $1::text OR left($1::text, length(o.path) + 1) = o.path || '/'
     ORDER BY o.depth`,
    [path],
  );
  return rows;
}

/** Set an organization's own setting; answers the one it had (null: never set). */
export async function setSupportAccess(db: Queryable, organizationId: string, allowed: boolean, userId: string): Promise<boolean | null> {
  const { rows } = await db.query<{ before: boolean | null }>(
    `WITH before AS (SELECT allowed FROM support_access WHERE organization_id = $1 FOR UPDATE)
     INSERT INTO support_access (organization_id, allowed, set_by_user_id) VALUES ($1, $2, $3)
     ON CONFLICT (organization_id) DO UPDATE SET allowed = EXCLUDED.allowed, set_by_user_id = EXCLUDED.set_by_user_id, set_at = now()
     RETURNING (SELECT allowed FROM before) AS before`,
    [organizationId, allowed, userId],
  );
  return rows[0]?.before ?? null;
}

/** A member as a support session needs them: membership, organization, user, rights. */
export interface SupportedMemberRow {
  id: string;
  user_id: string;
  organization_id: string;
  organization_path: string;
  email: string;
  first_name: string;
  last_name: string;
  language_code: string;
  rights: unknown;
}

export async function findSupportedMember(db: Queryable, memberId: string): Promise<SupportedMemberRow | null> {
  const { rows } = await db.query<SupportedMemberRow>(
    `SELECT m.id, m.user_id, m.organization_id, o.path AS organization_path, u.email, u.first_name, u.last_name, u.language_code, m.rights
     FROM memberships m JOIN organizations o ON o.id = m.organization_id JOIN users u ON u.id = m.user_id
     WHERE m.id = $1 AND u.deactivated_at IS NULL`,
    [memberId],
  );
  return rows[0] ?? null;
}

export interface NewSupportSession {
  memberUserId: string;
  memberOrganizationId: string;
  supporterUserId: string;
  supporterEmail: string;
  supporterName: string;
  supporterOrganizationId: string;
  supporterSessionIdHash: string;
  reason: string;
  minutes: number;
}

export async function insertSupportSession(db: Queryable, s: NewSupportSession): Promise<{ id: string; ends_at: Date }> {
  const { rows } = await db.query<{ id: string; ends_at: Date }>(
    `INSERT INTO support_sessions (member_user_id, member_organization_id, supporter_user_id, supporter_email, supporter_name,
                                   supporter_organization_id, supporter_session_id_hash, reason, minutes, ends_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, now() + make_interval(mins => $9))
     RETURNING id, ends_at`,
    [
      s.memberUserId,
      s.memberOrganizationId,
      s.supporterUserId,
      s.supporterEmail,
      s.supporterName,
      s.supporterOrganizationId,
      s.supporterSessionIdHash,
      s.reason,
      s.minutes,
    ],
  );
  return rows[0]!;
}

/** A support session with what its start, its end and its audit entries need. */
export interface SupportSessionRow {
  id: string;
  member_user_id: string;
  member_email: string;
  member_first_name: string;
  member_language_code: string;
  member_id: string | null;
  member_organization_id: string;
  member_organization_path: string;
  supporter_user_id: string | null;
  supporter_email: string;
  supporter_name: string;
  supporter_session_id_hash: string | null;
  reason: string;
  minutes: number;
  started_at: Date | null;
  ended_at: Date | null;
  /** seconds until it ends (negative: ended) */
  seconds_left: number;
}

export async function findSupportSession(
  db: Queryable,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<SupportSessionRow | null> {
  const { rows } = await db.query<SupportSessionRow>(
    `SELECT s.id, s.member_user_id, u.email AS member_email, u.first_name AS member_first_name, u.language_code AS member_language_code,
            m.id AS member_id, s.member_organization_id, o.path AS member_organization_path,
            s.supporter_user_id, s.supporter_email, s.supporter_name, s.supporter_session_id_hash, s.reason, s.minutes,
            s.started_at, s.ended_at, extract(epoch FROM s.ends_at - now())::float8 AS seconds_left
     FROM support_sessions s JOIN users u ON u.id = s.member_user_id JOIN organizations o ON o.id = s.member_organization_id
     LEFT JOIN memberships m ON m.user_id = s.member_user_id
     WHERE s.id = $1${options.forUpdate ? ' FOR UPDATE OF s' : ''}`,
    [id],
  );
  return rows[0] ?? null;
}

export async function markStarted(db: Queryable, id: string): Promise<void> {
  await db.query('UPDATE support_sessions SET started_at = now() WHERE id = $1', [id]);
}

/** End a support session: noted as ended now (unless it ended before), and its portal sessions end. */
export async function endSupportSession(db: Queryable, id: string): Promise<void> {
  await db.query('UPDATE support_sessions SET ended_at = least(now(), ends_at) WHERE id = $1 AND ended_at IS NULL', [id]);
  await db.query('DELETE FROM sessions WHERE support_session_id = $1', [id]);
}

export interface OwnSupportSessionRow {
  id: string;
  supporter_name: string;
  supporter_email: string;
  reason: string;
  minutes: number;
  created_at: Date;
  started_at: Date | null;
  ended_at: Date | null;
}

/**
 * A user's support sessions, newest first (at most 100). One that started has ended when it was
 * ended, when its time ran out, or when its portal session is gone (the supporter's session ended).
 */
export async function listOwnSupportSessions(db: Queryable, userId: string): Promise<OwnSupportSessionRow[]> {
  const { rows } = await db.query<OwnSupportSessionRow>(
    `SELECT s.id, s.supporter_name, s.supporter_email, s.reason, s.minutes, s.created_at, s.started_at,
            CASE
              WHEN s.ended_at IS NOT NULL THEN s.ended_at
              WHEN s.started_at IS NULL THEN NULL
              WHEN s.ends_at <= now() THEN s.ends_at
              WHEN NOT EXISTS (SELECT 1 FROM sessions x WHERE x.support_session_id = s.id AND x.expires_at > now()) THEN now()
            END AS ended_at
     FROM support_sessions s WHERE s.member_user_id = $1 ORDER BY s.created_at DESC LIMIT 100`,
    [userId],
  );
  return rows;
}
