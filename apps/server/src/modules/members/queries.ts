import type { Queryable } from '../../db/client.js';
import { containsPattern, subtreeCondition } from '../../db/sql.js';

/** SQL of members: rights, removal, subtree search (trigram index on lower(email)), export. */

export interface MembershipRow {
  id: string;
  user_id: string;
  organization_id: string;
  email: string;
  rights: unknown;
  organization_path: string;
  organization_depth: number;
}

export async function findMembership(db: Queryable, id: string, options: { forUpdate?: boolean } = {}): Promise<MembershipRow | null> {
  const { rows } = await db.query<MembershipRow>(
    `SELECT m.id, m.user_id, m.organization_id, m.email, m.rights, o.path AS organization_path, o.depth AS organization_depth
     FROM memberships m JOIN organizations o ON o.id = m.organization_id WHERE m.id = $1${options.forUpdate ? ' FOR UPDATE OF m' : ''}`,
    [id],
  );
  return rows[0] ?? null;
}

export async function updateRights(
  db: Queryable,
  membershipId: string,
  userId: string,
  rights: unknown,
  isDeveloper: boolean | null,
): Promise<void> {
  await db.query('UPDATE memberships SET rights = $2, updated_at = now() WHERE id = $1', [membershipId, JSON.stringify(rights)]);
  if (isDeveloper !== null) await db.query('UPDATE users SET is_developer = $2, updated_at = now() WHERE id = $1', [userId, isDeveloper]);
}

/** The rights of every other member of an organization (read after the root member lock). */
export async function listOtherMemberRights(db: Queryable, organizationId: string, exceptMembershipId: string): Promise<unknown[]> {
  const { rows } = await db.query<{ rights: unknown }>('SELECT rights FROM memberships WHERE organization_id = $1 AND id <> $2', [
    organizationId,
    exceptMembershipId,
  ]);
  return rows.map((r) => r.rights);
}

export async function deleteUser(db: Queryable, userId: string): Promise<void> {
  await db.query('DELETE FROM users WHERE id = $1', [userId]);
}

export interface SearchMemberRow {
  id: string;
  organization_id: string;
  email: string;
  first_name: string;
  last_name: string;
  organization_name: string;
  organization_path: string;
  last_sign_in_at: Date | string | null;
}

/**
 * The inactive-member condition on a membership row `m`: its user has not signed in since
 * `daysParam` days ago, or never.
 */
const inactiveCondition = (daysParam: string) =>
  `EXISTS (SELECT 1 FROM users iu WHERE iu.id = m.user_id AND (iu.last_sign_in_at IS NULL OR iu.last_sign_in_at < now() - make_interval(days => ${daysParam}::int)))`;

/** Optional filters of a member search besides the subtree: e-mail text, inactivity. */
export interface MemberFilter {
  text: string;
  inactiveDays?: number | undefined;
}

/** The SQL conditions and parameters of a filter, numbered after the `first` fixed parameters. */
function filterSql(filter: MemberFilter, first: number): { sql: string; params: unknown[] } {
  const parts: string[] = [];
  const params: unknown[] = [];
  if (filter.text.length > 0) {
    params.push(containsPattern(filter.text));
    parts.push(`lower(m.email) LIKE $${first + params.length}`);
  }
  if (filter.inactiveDays !== undefined) {
    params.push(filter.inactiveDays);
    parts.push(inactiveCondition(`$${first + params.length}`));
  }
  return { sql: parts.map((p) => ` AND ${p}`).join(''), params };
}

/** The page of matching memberships first (path index or trigram index), then names for those rows only. */
export const SEARCH_MEMBERS_SQL = (withText: boolean, conditions = withText ? ' AND lower(m.email) LIKE $4' : '') => `
  SELECT m.id, m.organization_id, m.email, u.first_name, u.last_name, o.name AS organization_name, m.organization_path, u.last_sign_in_at
  FROM (
    SELECT m.id, m.organization_id, m.user_id, m.email, m.organization_path
    FROM memberships m
    WHERE ${subtreeCondition('m.organization_path', '$1')}${conditions}
    ORDER BY m.organization_path, lower(m.email), m.id
    LIMIT $2 OFFSET $3
  ) AS m
  JOIN organizations o ON o.id = m.organization_id
  JOIN users u ON u.id = m.user_id
  ORDER BY m.organization_path, lower(m.email), m.id`;

export async function searchMembers(
  db: Queryable,
  path: string,
  filter: MemberFilter,
  limit: number,
  offset: number,
): Promise<SearchMemberRow[]> {
  const { sql, params } = filterSql(filter, 3);
  const { rows } = await db.query<SearchMemberRow>(SEARCH_MEMBERS_SQL(filter.text.length > 0, sql), [path, limit, offset, ...params]);
  return rows;
}

/** Matching members, counted up to `cap` (a count of a million rows costs more than the search). */
export async function countMembersMatching(db: Queryable, path: string, filter: MemberFilter, cap: number): Promise<number> {
  const { sql, params } = filterSql(filter, 2);
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM (SELECT 1 FROM memberships m WHERE ${subtreeCondition('m.organization_path', '$1')}${sql} LIMIT $2) AS s`,
    [path, cap, ...params],
  );
  return rows[0]?.n ?? 0;
}

export interface ExportRow {
  organization_path: string;
  organization_name: string;
  email: string;
  first_name: string;
  last_name: string;
  language_code: string;
  external_idp: string | null;
  rights: unknown;
  created_at: Date | string;
  last_sign_in_at: Date | string | null;
}

export async function listMembersForExport(db: Queryable, path: string): Promise<ExportRow[]> {
  const { rows } = await db.query<ExportRow>(
    `SELECT m.organization_path, o.name AS organization_name, m.email, u.first_name, u.last_name, u.language_code, u.external_idp, m.rights, m.created_at, u.last_sign_in_at
     FROM memberships m JOIN organizations o ON o.id = m.organization_id JOIN users u ON u.id = m.user_id
     WHERE ${subtreeCondition('m.organization_path', '$1')}
     ORDER BY m.organization_path, lower(m.email)`,
    [path],
  );
  return rows;
}

/** Serialise changes of the root organization's members until the transaction ends (an advisory lock). */
export async function lockRootMembers(db: Queryable, lockKey: number): Promise<void> {
  await db.query('SELECT pg_advisory_xact_lock($1)', [lockKey]);
}

// ---- deactivation (activation.ts) ---------------------------------------------------------------

/** Set or clear a user's deactivation; true when it changed (false: it already was so). */
export async function setDeactivated(db: Queryable, userId: string, deactivated: boolean): Promise<boolean> {
  const { rowCount } = await db.query(
    deactivated
      ? 'UPDATE users SET deactivated_at = now(), updated_at = now() WHERE id = $1 AND deactivated_at IS NULL'
      : 'UPDATE users SET deactivated_at = NULL, updated_at = now() WHERE id = $1 AND deactivated_at IS NOT NULL',
    [userId],
  );
  return rowCount > 0;
}

/** The rights of every other active (not deactivated) member of an organization (read after the root member lock). */
export async function listOtherActiveMemberRights(db: Queryable, organizationId: string, exceptMembershipId: string): Promise<unknown[]> {
  const { rows } = await db.query<{ rights: unknown }>(
    `SELECT m.rights FROM memberships m JOIN users u ON u.id = m.user_id
     WHERE m.organization_id = $1 AND m.id <> $2 AND u.deactivated_at IS NULL`,
    [organizationId, exceptMembershipId],
  );
  return rows.map((r) => r.rights);
}

/** A membership with its rights (bootstrap.ts: the provider's administrator). */
export async function insertMembership(
  db: Queryable,
  m: { organizationId: string; userId: string; email: string; organizationPath: string; rights: unknown },
): Promise<void> {
  await db.query('INSERT INTO memberships (organization_id, user_id, email, organization_path, rights) VALUES ($1, $2, $3, $4, $5)', [
    m.organizationId,
    m.userId,
    m.email,
    m.organizationPath,
    JSON.stringify(m.rights),
  ]);
}
