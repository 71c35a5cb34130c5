import type { Invitation, InvitationState } from '@partner-portal/contracts';
import type { Queryable } from '../../db/client.js';
import { containsPattern, subtreeCondition } from '../../db/sql.js';

/** SQL of invitations. The state EXPIRED is computed on read (and swept before new invitations). */

export interface InvitationRow {
  id: string;
  organization_id: string;
  email: string;
  state: InvitationState;
  code_hash: string;
  language_code: string;
  is_external_identity_provider: boolean;
  rights: unknown;
  invited_by: string | null;
  /** the member the invitation gives a password to (a directory provisioned them: modules/scim), or null for a new account */
  member_id: string | null;
  created_at: Date | string;
  last_sent_at: Date | string | null;
  expires_at: Date | string;
  organization_name: string;
  organization_path: string;
  organization_depth: number;
}

/** The state as seen now: a PENDING invitation past its expiry is EXPIRED. */
const STATE = `CASE WHEN i.state = 'PENDING' AND i.expires_at <= now() THEN 'EXPIRED' ELSE i.state END AS state`;
const COLUMNS = `i.id, i.organization_id, i.email, ${STATE}, i.code_hash, i.language_code, i.is_external_identity_provider, i.rights, i.invited_by, i.member_id,
  i.created_at, i.last_sent_at, i.expires_at, o.name AS organization_name, o.path AS organization_path, o.depth AS organization_depth`;

export function toInvitation(row: InvitationRow, withOrganization = false): Invitation {
  return {
    invitation_id: row.id,
    organization_id: row.organization_id,
    email_address: row.email,
    invitation_state: row.state,
    created_at: new Date(row.created_at).toISOString(),
    last_sent_at: row.last_sent_at ? new Date(row.last_sent_at).toISOString() : null,
    language_code: row.language_code,
    is_external_identity_provider: row.is_external_identity_provider,
    ...(row.state === 'PENDING' || row.state === 'EXPIRED' ? { expires_at: new Date(row.expires_at).toISOString() } : {}),
    ...(withOrganization ? { organization_name: row.organization_name, organization_path: row.organization_path } : {}),
  };
}

export async function findInvitation(db: Queryable, id: string, options: { forUpdate?: boolean } = {}): Promise<InvitationRow | null> {
  const { rows } = await db.query<InvitationRow>(
    `SELECT ${COLUMNS} FROM invitations i JOIN organizations o ON o.id = i.organization_id WHERE i.id = $1${options.forUpdate ? ' FOR UPDATE OF i' : ''}`,
    [id],
  );
  return rows[0] ?? null;
}

/**
 * The live pending invitation of an address into the subtree at `path` (a sign-in through a
 * single sign-on connection accepts it: acceptance.ts), the oldest first; `forUpdate` locks it.
 */
export async function findPendingInSubtree(
  db: Queryable,
  email: string,
  path: string,
  options: { forUpdate?: boolean } = {},
): Promise<InvitationRow | null> {
  const { rows } = await db.query<InvitationRow>(
    `SELECT ${COLUMNS} FROM invitations i JOIN organizations o ON o.id = i.organization_id
     WHERE lower(i.email) = lower($1) AND i.state = 'PENDING' AND i.expires_at > now() AND ${subtreeCondition('o.path', '$2')}
     ORDER BY i.created_at LIMIT 1${options.forUpdate ? ' FOR UPDATE OF i' : ''}`,
    [email, path],
  );
  return rows[0] ?? null;
}

/** SQL of the live pending invitations of the organization $1, unordered. */
export const PENDING_INVITATIONS_OF_SQL = `SELECT ${COLUMNS} FROM invitations i JOIN organizations o ON o.id = i.organization_id
   WHERE i.organization_id = $1 AND i.state = 'PENDING' AND i.expires_at > now()`;

/**
 * SQL of the invitations of the organization $1 past their expiry that may be sent again, unordered:
 * the latest one per address, none for an address with a live pending invitation or an account.
 */
export const EXPIRED_INVITATIONS_OF_SQL = `SELECT DISTINCT ON (lower(i.email)) ${COLUMNS} FROM invitations i JOIN organizations o ON o.id = i.organization_id
   WHERE i.organization_id = $1 AND (i.state = 'EXPIRED' OR (i.state = 'PENDING' AND i.expires_at <= now()))
     AND NOT EXISTS (SELECT 1 FROM invitations l WHERE lower(l.email) = lower(i.email) AND l.state = 'PENDING' AND l.expires_at > now())
     AND NOT EXISTS (SELECT 1 FROM users u WHERE lower(u.email) = lower(i.email))
   ORDER BY lower(i.email), i.expires_at DESC`;

/** An invitation the sweep marked EXPIRED, with its organization (its invitation.expired event). */
export interface ExpiredInvitationRow {
  id: string;
  organization_id: string;
  organization_path: string;
  email: string;
  expires_at: Date | string;
}

/**
 * Mark PENDING invitations past their expiry as EXPIRED: those of one e-mail address (waiting for
 * a row another transaction holds), or without one at most `limit` of all (the job: skipping rows
 * another transaction holds). Returns the rows marked.
 */
export async function sweepExpired(db: Queryable, email?: string, limit = 1000): Promise<ExpiredInvitationRow[]> {
  const which =
    email === undefined
      ? `id IN (SELECT id FROM invitations WHERE state = 'PENDING' AND expires_at <= now() LIMIT $1 FOR UPDATE SKIP LOCKED)`
      : `state = 'PENDING' AND expires_at <= now() AND lower(email) = lower($1::text)`;
  const { rows } = await db.query<ExpiredInvitationRow>(
    `WITH expired AS (
       UPDATE invitations SET state = 'EXPIRED' WHERE ${which} RETURNING id, organization_id, email, expires_at)
     SELECT e.id, e.organization_id, o.path AS organization_path, e.email, e.expires_at
     FROM expired e JOIN organizations o ON o.id = e.organization_id`,
    [email ?? limit],
  );
  return rows;
}

export async function hasPendingInvitation(db: Queryable, email: string): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM invitations WHERE lower(email) = lower($1) AND state = $2', [email, 'PENDING']);
  return rows.length > 0;
}

export async function userExists(db: Queryable, email: string): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM users WHERE lower(email) = lower($1)', [email]);
  return rows.length > 0;
}

export async function insertInvitation(
  db: Queryable,
  i: {
    organizationId: string;
    email: string;
    codeHash: string;
    languageCode: string;
    isExternal: boolean;
    rights: unknown;
    /** the inviting user; null when no user invites (a directory: modules/scim) */
    invitedBy: string | null;
    ttlHours: number;
    /** the existing member it gives a password to (acceptance.ts), if any */
    memberId?: string | null;
  },
): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO invitations (organization_id, email, code_hash, language_code, is_external_identity_provider, rights, invited_by, last_sent_at, expires_at, member_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, now(), now() + make_interval(hours => $8), $9) RETURNING id`,
    [
      i.organizationId,
      i.email,
      i.codeHash,
      i.languageCode,
      i.isExternal,
      i.rights === null ? null : JSON.stringify(i.rights),
      i.invitedBy,
      i.ttlHours,
      i.memberId ?? null,
    ],
  );
  return rows[0]!.id;
}

/**
 * A new code and expiry; an expired invitation is pending again. Decided by the UPDATE itself (a
 * concurrent one waits for this row and sees what it wrote): nothing changes, and false is
 * returned, for an invitation no longer pending or expired, or for a live pending one resent less
 * than `sameSendingSeconds` ago (that resend is the same sending: service.ts, resend). The
 * e-mail of the invitation being made (last_sent_at = created_at) is no resend.
 */
export async function renewCode(
  db: Queryable,
  id: string,
  codeHash: string,
  ttlHours: number,
  sameSendingSeconds: number,
): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE invitations SET state = 'PENDING', code_hash = $2, last_sent_at = now(), expires_at = now() + make_interval(hours => $3)
     WHERE id = $1 AND state IN ('PENDING', 'EXPIRED')
       AND NOT (state = 'PENDING' AND expires_at > now() AND last_sent_at IS NOT NULL AND last_sent_at > created_at
                AND last_sent_at > now() - make_interval(secs => $4))`,
    [id, codeHash, ttlHours, sameSendingSeconds],
  );
  return rowCount === 1;
}

export async function markRevoked(db: Queryable, id: string): Promise<void> {
  await db.query(`UPDATE invitations SET state = 'REVOKED', revoked_at = now() WHERE id = $1`, [id]);
}

export async function markAccepted(db: Queryable, id: string, userId: string): Promise<void> {
  await db.query(`UPDATE invitations SET state = 'ACCEPTED', accepted_at = now(), accepted_user_id = $2 WHERE id = $1`, [id, userId]);
}

export async function insertUser(
  db: Queryable,
  u: {
    email: string;
    firstName: string;
    lastName: string;
    languageCode: string;
    passwordHash: string | null;
    externalIdp: string | null;
    /** the provider's `sub`, when the account is made by a sign-in there */
    externalSubject?: string | null;
    newsletter: boolean;
    isDeveloper: boolean;
  },
): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO users (email, first_name, last_name, language_code, password_hash, external_idp, external_subject, newsletter_opt_in, is_developer, terms_accepted_at, password_changed_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, now(), CASE WHEN $5::text IS NULL THEN NULL ELSE now() END) RETURNING id`,
    [
      u.email,
      u.firstName,
      u.lastName,
      u.languageCode,
      u.passwordHash,
      u.externalIdp,
      u.externalSubject ?? null,
      u.newsletter,
      u.isDeveloper,
    ],
  );
  return rows[0]!.id;
}

export async function insertMembership(
  db: Queryable,
  m: { organizationId: string; userId: string; email: string; organizationPath: string; rights: unknown },
): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO memberships (organization_id, user_id, email, organization_path, rights) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
    [m.organizationId, m.userId, m.email, m.organizationPath, JSON.stringify(m.rights)],
  );
  return rows[0]!.id;
}

/** The account of a provisioned member an invitation gives a password to (acceptance.ts), locked. */
export interface ProvisionedAccountRow {
  user_id: string;
  email: string;
  first_name: string;
  last_name: string;
  password_hash: string | null;
  external_idp: string | null;
  deactivated_at: Date | string | null;
}

export async function findProvisionedAccount(db: Queryable, membershipId: string): Promise<ProvisionedAccountRow | null> {
  const { rows } = await db.query<ProvisionedAccountRow>(
    `SELECT u.id AS user_id, u.email, u.first_name, u.last_name, u.password_hash, u.external_idp, u.deactivated_at
     FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.id = $1 FOR UPDATE OF u`,
    [membershipId],
  );
  return rows[0] ?? null;
}

/** A provisioned member registers: their password, language and names (those the directory left empty), the terms accepted. */
export async function completeRegistration(
  db: Queryable,
  userId: string,
  r: { firstName: string; lastName: string; languageCode: string; passwordHash: string; newsletter: boolean },
): Promise<void> {
  await db.query(
    `UPDATE users SET password_hash = $2, password_changed_at = now(), language_code = $3, newsletter_opt_in = $4, terms_accepted_at = now(),
            first_name = CASE WHEN first_name = '' THEN $5 ELSE first_name END, last_name = CASE WHEN last_name = '' THEN $6 ELSE last_name END,
            updated_at = now()
     WHERE id = $1`,
    [userId, r.passwordHash, r.languageCode, r.newsletter, r.firstName, r.lastName],
  );
}

/** The live pending invitations of an address (lower() as the unique index compares), locked, with their organizations' paths. */
export async function pendingInvitationsOf(db: Queryable, email: string): Promise<InvitationRow[]> {
  const { rows } = await db.query<InvitationRow>(
    `SELECT ${COLUMNS} FROM invitations i JOIN organizations o ON o.id = i.organization_id
     WHERE lower(i.email) = lower($1) AND i.state = 'PENDING' FOR UPDATE OF i`,
    [email],
  );
  return rows;
}

/** The pending invitation of a provisioned member, if any (locked). */
export async function pendingInvitationOfMember(db: Queryable, membershipId: string): Promise<InvitationRow | null> {
  const { rows } = await db.query<InvitationRow>(
    `SELECT ${COLUMNS} FROM invitations i JOIN organizations o ON o.id = i.organization_id
     WHERE i.member_id = $1 AND i.state = 'PENDING' FOR UPDATE OF i`,
    [membershipId],
  );
  return rows[0] ?? null;
}

/** The rights and developer flag of an inviter (null when the user is gone). */
export async function findInviterRights(db: Queryable, userId: string): Promise<{ rights: unknown; is_developer: boolean } | null> {
  const { rows } = await db.query<{ rights: unknown; is_developer: boolean }>(
    'SELECT m.rights, u.is_developer FROM users u LEFT JOIN memberships m ON m.user_id = u.id WHERE u.id = $1',
    [userId],
  );
  return rows[0] ?? null;
}

/** Pending invitations of a subtree whose e-mail contains the text, paged like the member search (with their total). */
export async function searchPendingInvitations(
  db: Queryable,
  path: string,
  text: string,
  limit: number,
  offset: number,
): Promise<(InvitationRow & { total: number })[]> {
  const withText = text.length > 0;
  const { rows } = await db.query<InvitationRow & { total: number }>(
    `SELECT i.id, i.organization_id, i.email, i.state, i.code_hash, i.language_code, i.is_external_identity_provider, i.rights, i.invited_by,
            i.created_at, i.last_sent_at, i.expires_at, o.name AS organization_name, o.path AS organization_path, o.depth AS organization_depth,
            count(*) OVER () AS total
     FROM invitations i JOIN organizations o ON o.id = i.organization_id
     WHERE i.state = 'PENDING' AND i.expires_at > now() AND ${subtreeCondition('o.path', '$1')}${withText ? ' AND lower(i.email) LIKE $4' : ''}
     ORDER BY o.path, lower(i.email), i.id
     LIMIT $2 OFFSET $3`,
    withText ? [path, limit, offset, containsPattern(text)] : [path, limit, offset],
  );
  return rows;
}

// ---- bulk sendings ------------------------------------------------------------------------------

/** Which of these addresses (lower case) already have an account, and which a pending invitation. */
export async function existingEmails(db: Queryable, emails: string[]): Promise<{ members: Set<string>; invited: Set<string> }> {
  const [members, invited] = await Promise.all([
    db.query<{ e: string }>('SELECT lower(email) AS e FROM users WHERE lower(email) = ANY($1::text[])', [emails]),
    db.query<{ e: string }>(
      `SELECT lower(email) AS e FROM invitations WHERE state = 'PENDING' AND expires_at > now() AND lower(email) = ANY($1::text[])`,
      [emails],
    ),
  ]);
  return { members: new Set(members.rows.map((r) => r.e)), invited: new Set(invited.rows.map((r) => r.e)) };
}

/** Store a sending's report; returns the batch id. */
export async function insertInvitationBatch(
  db: Queryable,
  batch: { organizationId: string; createdBy: string | null; sent: number; refused: number; rows: unknown[] },
): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    'INSERT INTO invitation_batches (organization_id, created_by, sent, refused, rows) VALUES ($1, $2, $3, $4, $5) RETURNING id',
    [batch.organizationId, batch.createdBy, batch.sent, batch.refused, JSON.stringify(batch.rows)],
  );
  return rows[0]!.id;
}

/** A stored sending with the path of its organization. */
export async function findInvitationBatch<Row>(
  db: Queryable,
  batchId: string,
): Promise<{ path: string; created_at: Date | string; rows: Row[] } | null> {
  const { rows } = await db.query<{ path: string; created_at: Date | string; rows: Row[] }>(
    'SELECT o.path, b.created_at, b.rows FROM invitation_batches b JOIN organizations o ON o.id = b.organization_id WHERE b.id = $1',
    [batchId],
  );
  return rows[0] ?? null;
}
