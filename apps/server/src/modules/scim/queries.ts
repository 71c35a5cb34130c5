import type { Queryable } from '../../db/client.js';
import { subtreeCondition } from '../../db/sql.js';

/** SQL of SCIM provisioning (migration 0071): directories' tokens, and members as SCIM Users. */

// ---- tokens -----------------------------------------------------------------------------------------

export interface TokenRow {
  id: string;
  name: string;
  organization_id: string;
  created_at: Date | string;
  last_used_at: Date | string | null;
  created_by_email: string | null;
}

export async function insertToken(
  db: Queryable,
  t: { organizationId: string; name: string; tokenHash: string; rights: unknown; isDeveloper: boolean; createdBy: string },
): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO scim_tokens (organization_id, name, token_hash, rights, is_developer, created_by) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    [t.organizationId, t.name, t.tokenHash, JSON.stringify(t.rights), t.isDeveloper, t.createdBy],
  );
  return rows[0]!.id;
}

export async function countTokens(db: Queryable, organizationId: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM scim_tokens WHERE organization_id = $1', [organizationId]);
  return rows[0]?.n ?? 0;
}

const TOKEN_COLUMNS = `t.id, t.name, t.organization_id, t.created_at, t.last_used_at,
  (SELECT u.email FROM users u WHERE u.id = t.created_by) AS created_by_email`;

export async function listTokens(db: Queryable, organizationId: string): Promise<TokenRow[]> {
  const { rows } = await db.query<TokenRow>(
    `SELECT ${TOKEN_COLUMNS} FROM scim_tokens t WHERE t.organization_id = $1 ORDER BY t.created_at, t.id`,
    [organizationId],
  );
  return rows;
}

export async function findToken(db: Queryable, organizationId: string, tokenId: string): Promise<TokenRow | null> {
  const { rows } = await db.query<TokenRow>(`SELECT ${TOKEN_COLUMNS} FROM scim_tokens t WHERE t.organization_id = $1 AND t.id = $2`, [
    organizationId,
    tokenId,
  ]);
  return rows[0] ?? null;
}

export async function deleteToken(db: Queryable, tokenId: string): Promise<void> {
  await db.query('DELETE FROM scim_tokens WHERE id = $1', [tokenId]);
}

/** A token as a request finds it by its hash: what it may act on and with which rights. */
export interface BearerTokenRow {
  id: string;
  name: string;
  organization_id: string;
  organization_path: string;
  organization_name: string;
  organization_depth: number;
  rights: unknown;
  is_developer: boolean;
}

/** The token of a hash, its last use noted (at most once a minute, so that a busy directory does not write at every call). */
export async function findTokenByHash(db: Queryable, tokenHash: string): Promise<BearerTokenRow | null> {
  const { rows } = await db.query<BearerTokenRow>(
    `WITH found AS (
       SELECT t.id, t.name, t.organization_id, o.path AS organization_path, o.name AS organization_name, o.depth AS organization_depth,
              t.rights, t.is_developer, t.last_used_at
       FROM scim_tokens t JOIN organizations o ON o.id = t.organization_id WHERE t.token_hash = $1
     ), used AS (
       UPDATE scim_tokens SET last_used_at = now()
       WHERE id = (SELECT id FROM found) AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')
     )
     SELECT id, name, organization_id, organization_path, organization_name, organization_depth, rights, is_developer FROM found`,
    [tokenHash],
  );
  return rows[0] ?? null;
}

// ---- users ------------------------------------------------------------------------------------------

/** A member as a SCIM User shows it (representation.ts), with what the rules need. */
export interface ScimUserRow {
  id: string;
  user_id: string;
  organization_id: string;
  organization_path: string;
  organization_depth: number;
  organization_name: string;
  rights: unknown;
  email: string;
  first_name: string;
  last_name: string;
  language_code: string;
  scim_external_id: string | null;
  deactivated_at: Date | string | null;
  has_password: boolean;
  external_idp: string | null;
  external_subject: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

const USER_COLUMNS = `m.id, m.user_id, m.organization_id, o.path AS organization_path, o.depth AS organization_depth, o.name AS organization_name, m.rights,
  u.email, u.first_name, u.last_name, u.language_code, u.scim_external_id, u.deactivated_at, u.password_hash IS NOT NULL AS has_password,
  u.external_idp, u.external_subject, m.created_at, greatest(m.created_at, m.updated_at, u.updated_at) AS updated_at`;
const USER_FROM = 'memberships m JOIN users u ON u.id = m.user_id JOIN organizations o ON o.id = m.organization_id';

/** A member of the subtree at `path` by membership id; `forUpdate` locks the membership and the user. */
export async function findScimUser(db: Queryable, path: string, id: string, forUpdate = false): Promise<ScimUserRow | null> {
  const { rows } = await db.query<ScimUserRow>(
    `SELECT ${USER_COLUMNS} FROM ${USER_FROM} WHERE m.id = $2 AND ${subtreeCondition('m.organization_path', '$1')}${forUpdate ? ' FOR UPDATE OF m, u' : ''}`,
    [path, id],
  );
  return rows[0] ?? null;
}

/** A page of the members of the subtree at `path` that match `condition` (filter.ts, its parameters from $2), and how many match. */
export async function listScimUsers(
  db: Queryable,
  path: string,
  condition: { sql: string; params: unknown[] },
  limit: number,
  offset: number,
): Promise<{ total: number; rows: ScimUserRow[] }> {
  const where = `${subtreeCondition('m.organization_path', '$1')} AND ${condition.sql}`;
  const params = [path, ...condition.params];
  const [total, page] = await Promise.all([
    db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${USER_FROM} WHERE ${where}`, params),
    limit > 0
      ? db.query<ScimUserRow>(
          `SELECT ${USER_COLUMNS} FROM ${USER_FROM} WHERE ${where} ORDER BY m.created_at, m.id LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
          [...params, limit, offset],
        )
      : Promise.resolve({ rows: [] as ScimUserRow[] }),
  ]);
  return { total: total.rows[0]?.n ?? 0, rows: page.rows };
}

/** A new account and its membership, without a password (it signs in through its connection, or registers by its invitation). */
export async function insertMember(
  db: Queryable,
  m: {
    email: string;
    firstName: string;
    lastName: string;
    languageCode: string;
    externalIdp: string | null;
    externalId: string | null;
    deactivated: boolean;
    organizationId: string;
    organizationPath: string;
    rights: unknown;
  },
): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `WITH u AS (
       INSERT INTO users (email, first_name, last_name, language_code, external_idp, scim_external_id, deactivated_at)
       VALUES ($1, $2, $3, $4, $5, $6, CASE WHEN $7::boolean THEN now() END) RETURNING id
     )
     INSERT INTO memberships (organization_id, user_id, email, organization_path, rights)
     SELECT $8, u.id, $1, $9, $10 FROM u RETURNING id`,
    [
      m.email,
      m.firstName,
      m.lastName,
      m.languageCode,
      m.externalIdp,
      m.externalId,
      m.deactivated,
      m.organizationId,
      m.organizationPath,
      JSON.stringify(m.rights),
    ],
  );
  return rows[0]!.id;
}

/** The account's attributes a directory sets (the address on the membership too). */
export async function updateAccount(
  db: Queryable,
  row: { id: string; user_id: string },
  a: { email: string; firstName: string; lastName: string; languageCode: string; externalId: string | null },
): Promise<void> {
  await db.query(
    `UPDATE users SET email = $2, first_name = $3, last_name = $4, language_code = $5, scim_external_id = $6, updated_at = now() WHERE id = $1`,
    [row.user_id, a.email, a.firstName, a.lastName, a.languageCode, a.externalId],
  );
  await db.query('UPDATE memberships SET email = $2 WHERE id = $1 AND email <> $2', [row.id, a.email]);
}

/** Sign in elsewhere from now on: the account's identity provider (null: password), not linked to an identity there yet. */
export async function setSignInRoute(db: Queryable, userId: string, externalIdp: string | null): Promise<void> {
  await db.query('UPDATE users SET external_idp = $2, external_subject = NULL, updated_at = now() WHERE id = $1', [userId, externalIdp]);
}

/** Move a membership to another organization, with the rights it keeps there (and the developer flag only in the root). */
export async function moveMembership(
  db: Queryable,
  row: { id: string; user_id: string },
  to: { id: string; path: string; depth: number },
  rights: unknown,
): Promise<void> {
  await db.query('UPDATE memberships SET organization_id = $2, organization_path = $3, rights = $4, updated_at = now() WHERE id = $1', [
    row.id,
    to.id,
    to.path,
    JSON.stringify(rights),
  ]);
  if (to.depth !== 0) await db.query('UPDATE users SET is_developer = false WHERE id = $1 AND is_developer', [row.user_id]);
}

/** The user of a membership (the SCIM id is the membership's). */
export async function userIdOfMember(db: Queryable, membershipId: string): Promise<string | undefined> {
  const { rows } = await db.query<{ user_id: string }>('SELECT user_id FROM memberships WHERE id = $1', [membershipId]);
  return rows[0]?.user_id;
}
