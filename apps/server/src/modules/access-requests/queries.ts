import type { AccessRequest } from '@partner-portal/contracts';
import type { Queryable } from '../../db/client.js';
import { subtreeCondition } from '../../db/sql.js';

/** SQL of access requests (migration 0060, table access_requests). */

export type AccessRequestState = 'PENDING' | 'APPROVED' | 'DECLINED';

export interface AccessRequestRow {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  message: string | null;
  language_code: string;
  organization_id: string | null;
  state: AccessRequestState;
  created_at: Date | string;
  /** the organization the request was routed to (null: none) */
  organization_path: string | null;
}

const COLUMNS = `r.id, r.email, r.first_name, r.last_name, r.message, r.language_code, r.organization_id, r.state, r.created_at,
  o.path AS organization_path`;

export function toAccessRequest(row: AccessRequestRow & { organization_id: string }): AccessRequest {
  return {
    id: row.id,
    email_address: row.email,
    first_name: row.first_name,
    last_name: row.last_name,
    message: row.message,
    language_code: row.language_code,
    organization_id: row.organization_id,
    created_at: new Date(row.created_at).toISOString(),
  };
}

/** Whom a message to an account goes to, and in which language. */
export interface Recipient {
  email: string;
  first_name: string;
  language_code: string;
}

/** The account of an address (the same lower() comparison as every account lookup), or undefined. */
export async function findAccount(db: Queryable, email: string): Promise<Recipient | undefined> {
  const { rows } = await db.query<Recipient>('SELECT email, first_name, language_code FROM users WHERE lower(email) = lower($1)', [email]);
  return rows[0];
}

/** Whether the address already has a pending request (index access_requests_one_pending_per_email). */
export async function hasPendingRequest(db: Queryable, email: string): Promise<boolean> {
  const { rows } = await db.query(`SELECT 1 FROM access_requests WHERE lower(email) = lower($1) AND state = 'PENDING'`, [email]);
  return rows.length > 0;
}

/** A member of an organization that may be asked, with the rights that tell whether they are a userManager. */
export interface ChainMemberRow extends Recipient {
  organization_id: string;
  organization_name: string;
  organization_path: string;
  depth: number;
  rights: unknown;
}

/**
 * The members of the organizations at the given paths (an organization and its ancestors), the
 * deepest organization first. The paths are found by the unique index on organizations.path.
 */
export async function membersOfPaths(db: Queryable, paths: readonly string[]): Promise<ChainMemberRow[]> {
  const { rows } = await db.query<ChainMemberRow>(
    `SELECT o.id AS organization_id, o.name AS organization_name, o.path AS organization_path, o.depth,
            u.email, u.first_name, u.language_code, m.rights
     FROM organizations o
     JOIN memberships m ON m.organization_id = o.id
     JOIN users u ON u.id = m.user_id
     WHERE o.path = ANY($1::text[])
     ORDER BY o.depth DESC, lower(u.email)`,
    [paths],
  );
  return rows;
}

/**
 * Store a pending request; null when the address already has one (a request made meanwhile: the
 * unique index access_requests_one_pending_per_email decides, nothing is changed).
 */
export async function insertPendingRequest(
  db: Queryable,
  r: { email: string; firstName: string; lastName: string; message: string | null; languageCode: string; organizationId: string },
): Promise<{ id: string } | null> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO access_requests (email, first_name, last_name, message, language_code, organization_id)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (lower(email)) WHERE state = 'PENDING' DO NOTHING
     RETURNING id`,
    [r.email, r.firstName, r.lastName, r.message, r.languageCode, r.organizationId],
  );
  return rows[0] ?? null;
}

/** The pending requests routed to the organization at `path` or below it, oldest first. */
export async function listPendingInSubtree(db: Queryable, path: string): Promise<(AccessRequestRow & { organization_id: string })[]> {
  const { rows } = await db.query<AccessRequestRow & { organization_id: string }>(
    `SELECT ${COLUMNS}
     FROM organizations o JOIN access_requests r ON r.organization_id = o.id AND r.state = 'PENDING'
     WHERE ${subtreeCondition('o.path', '$1')}
     ORDER BY r.created_at, r.id`,
    [path],
  );
  return rows;
}

/** One request with the path of the organization it was routed to; `forUpdate` locks it until the transaction ends. */
export async function findRequest(db: Queryable, id: string, options: { forUpdate?: boolean } = {}): Promise<AccessRequestRow | null> {
  const { rows } = await db.query<AccessRequestRow>(
    `SELECT ${COLUMNS} FROM access_requests r LEFT JOIN organizations o ON o.id = r.organization_id
     WHERE r.id = $1${options.forUpdate ? ' FOR UPDATE OF r' : ''}`,
    [id],
  );
  return rows[0] ?? null;
}

/**
 * A pending request answered: APPROVED (with its invitation) or DECLINED, by whom and when. False
 * when it was no longer pending (decided meanwhile): nothing changed.
 */
export async function markDecided(
  db: Queryable,
  id: string,
  decision: { state: Exclude<AccessRequestState, 'PENDING'>; decidedBy: string | null; invitationId: string | null },
): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE access_requests SET state = $2, decided_by = $3, decided_at = now(), invitation_id = $4
     WHERE id = $1 AND state = 'PENDING'`,
    [id, decision.state, decision.decidedBy, decision.invitationId],
  );
  return rowCount === 1;
}
