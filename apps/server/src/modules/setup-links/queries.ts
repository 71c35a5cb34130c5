import type { Queryable } from '../../db/client.js';

/** A setup link as listed and checked. */
export interface LinkRow {
  id: string;
  organization_id: string;
  email: string;
  language_code: string;
  capabilities: string[];
  created_by: string | null;
  created_by_email: string | null;
  created_at: Date;
  expires_at: Date;
  revoked_at: Date | null;
  opened_at: Date | null;
}

const LINK_COLUMNS = `l.id, l.organization_id, l.email, l.language_code, l.capabilities, l.created_by, u.email AS created_by_email,
  l.created_at, l.expires_at, l.revoked_at, l.opened_at`;

export async function insertLink(
  db: Queryable,
  link: {
    organizationId: string;
    email: string;
    languageCode: string;
    capabilities: string[];
    tokenHash: string;
    createdBy: string;
    expiresInDays: number;
  },
): Promise<{ id: string; expires_at: Date }> {
  const { rows } = await db.query<{ id: string; expires_at: Date }>(
    `INSERT INTO setup_links (organization_id, email, language_code, capabilities, token_hash, created_by, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, now() + make_interval(days => $7::int))
     RETURNING id, expires_at`,
    [link.organizationId, link.email, link.languageCode, link.capabilities, link.tokenHash, link.createdBy, link.expiresInDays],
  );
  return rows[0]!;
}

/** The links of an organization, newest first. */
export async function listLinks(db: Queryable, organizationId: string): Promise<LinkRow[]> {
  const { rows } = await db.query<LinkRow>(
    `SELECT ${LINK_COLUMNS} FROM setup_links l LEFT JOIN users u ON u.id = l.created_by
     WHERE l.organization_id = $1 ORDER BY l.created_at DESC, l.id`,
    [organizationId],
  );
  return rows;
}

/** One link of the organization, locked for the caller's transaction. */
export async function findLinkForUpdate(db: Queryable, organizationId: string, id: string): Promise<LinkRow | null> {
  const { rows } = await db.query<LinkRow>(
    `SELECT ${LINK_COLUMNS} FROM setup_links l LEFT JOIN users u ON u.id = l.created_by
     WHERE l.organization_id = $1 AND l.id = $2 FOR UPDATE OF l`,
    [organizationId, id],
  );
  return rows[0] ?? null;
}

/** Revoke a link: its session ends with it. */
export async function revokeLink(db: Queryable, id: string): Promise<void> {
  await db.query(
    'UPDATE setup_links SET revoked_at = COALESCE(revoked_at, now()), session_hash = NULL, session_expires_at = NULL, code_hash = NULL WHERE id = $1',
    [id],
  );
}

/** A live link (not revoked, not expired) by its token's hash, with its organization's name. */
export interface LiveLinkRow extends LinkRow {
  organization_name: string;
  organization_path: string;
  code_hash: string | null;
  code_expires_at: Date | null;
  code_attempts: number;
  session_hash: string | null;
}

export async function findLiveLinkByToken(
  db: Queryable,
  tokenHash: string,
  options: { forUpdate?: boolean } = {},
): Promise<LiveLinkRow | null> {
  const { rows } = await db.query<LiveLinkRow>(
    `SELECT ${LINK_COLUMNS}, o.name AS organization_name, o.path AS organization_path, l.code_hash, l.code_expires_at, l.code_attempts, l.session_hash
     FROM setup_links l JOIN organizations o ON o.id = l.organization_id LEFT JOIN users u ON u.id = l.created_by
     WHERE l.token_hash = $1 AND l.revoked_at IS NULL AND l.expires_at > now()${options.forUpdate ? ' FOR UPDATE OF l' : ''}`,
    [tokenHash],
  );
  return rows[0] ?? null;
}

/** A new one-time code for the link (the previous one ends): its hash, until `minutes` from now, no wrong answer yet. */
export async function setCode(db: Queryable, id: string, codeHash: string, minutes: number): Promise<void> {
  await db.query(
    `UPDATE setup_links SET code_hash = $2, code_expires_at = now() + make_interval(mins => $3::int), code_attempts = 0 WHERE id = $1`,
    [id, codeHash, minutes],
  );
}

/** A wrong answer to the link's code: counted; past `max` the code ends. */
export async function countWrongCode(db: Queryable, id: string, max: number): Promise<void> {
  await db.query(
    `UPDATE setup_links SET code_attempts = code_attempts + 1,
       code_hash = CASE WHEN code_attempts + 1 >= $2 THEN NULL ELSE code_hash END
     WHERE id = $1`,
    [id, max],
  );
}

/** The code was right: it is spent, the link is opened, and its (one) session is this one. */
export async function openSession(db: Queryable, id: string, sessionHash: string, hours: number): Promise<void> {
  await db.query(
    `UPDATE setup_links SET code_hash = NULL, code_expires_at = NULL, code_attempts = 0, opened_at = COALESCE(opened_at, now()),
       session_hash = $2, session_expires_at = LEAST(expires_at, now() + make_interval(hours => $3::int))
     WHERE id = $1`,
    [id, sessionHash, hours],
  );
}

/**
 * The acting principal of a live setup session: the link, its organization, and its maker's
 * membership as it is now (rights, and the organization path they hold over).
 */
export interface SessionPrincipalRow {
  id: string;
  email: string;
  capabilities: string[];
  organization_id: string;
  organization_name: string;
  organization_path: string;
  organization_depth: number;
  created_by: string;
  maker_rights: unknown;
  maker_organization_path: string | null;
  maker_organization_depth: number | null;
  maker_is_developer: boolean;
}

export async function findSessionPrincipal(db: Queryable, sessionHash: string): Promise<SessionPrincipalRow | null> {
  const { rows } = await db.query<SessionPrincipalRow>(
    `SELECT l.id, l.email, l.capabilities, o.id AS organization_id, o.name AS organization_name, o.path AS organization_path,
            o.depth AS organization_depth, l.created_by, m.rights AS maker_rights, mo.path AS maker_organization_path,
            mo.depth AS maker_organization_depth, u.is_developer AS maker_is_developer
     FROM setup_links l
     JOIN organizations o ON o.id = l.organization_id
     JOIN users u ON u.id = l.created_by AND u.deactivated_at IS NULL
     LEFT JOIN memberships m ON m.user_id = u.id
     LEFT JOIN organizations mo ON mo.id = m.organization_id
     WHERE l.session_hash = $1 AND l.revoked_at IS NULL AND l.expires_at > now() AND l.session_expires_at > now()`,
    [sessionHash],
  );
  return rows[0] ?? null;
}

/** The maker of a link, to be told of a step: their address, language and name, while they are a user. */
export interface MakerRow {
  email: string;
  language_code: string;
  first_name: string;
  organization_name: string;
}

export async function findMaker(db: Queryable, linkId: string): Promise<MakerRow | null> {
  const { rows } = await db.query<MakerRow>(
    `SELECT u.email, u.language_code, u.first_name, o.name AS organization_name
     FROM setup_links l JOIN users u ON u.id = l.created_by AND u.deactivated_at IS NULL
     JOIN organizations o ON o.id = l.organization_id
     WHERE l.id = $1`,
    [linkId],
  );
  return rows[0] ?? null;
}
