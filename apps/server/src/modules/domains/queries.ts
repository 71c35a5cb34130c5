import type { Queryable } from '../../db/client.js';

/**
 * The SQL of verified domains (migration 0060). The reads below are the ones other modules use:
 * single sign-on (a connection's domains must be verified at or above its organization) and
 * access requests (the organization that verified an address's domain).
 */

/** SQL: the organization path `o.path` is the path `$param` or one of its ancestors. */
export const atOrAbove = (column: string, param: string) =>
  `(${column} = ${param}::text OR left(${param}::text, length(${column}) + 1) = ${column} || '/')`;

export interface VerifiedDomainRow {
  domain: string;
  organization_id: string;
  organization_path: string;
}

/** The organization that has verified a domain (at most one), or undefined. */
export async function findVerifiedDomain(db: Queryable, domain: string): Promise<VerifiedDomainRow | undefined> {
  const { rows } = await db.query<VerifiedDomainRow>(
    `SELECT d.domain, d.organization_id, o.path AS organization_path
     FROM organization_domains d JOIN organizations o ON o.id = d.organization_id
     WHERE d.domain = $1 AND d.verified_at IS NOT NULL`,
    [domain],
  );
  return rows[0];
}

/** The domains verified by the organization at `path` or one of its ancestors. */
export async function verifiedDomainsAtOrAbove(db: Queryable, path: string): Promise<VerifiedDomainRow[]> {
  const { rows } = await db.query<VerifiedDomainRow>(
    `SELECT d.domain, d.organization_id, o.path AS organization_path
     FROM organization_domains d JOIN organizations o ON o.id = d.organization_id
     WHERE d.verified_at IS NOT NULL AND ${atOrAbove('o.path', '$1')}
     ORDER BY d.domain`,
    [path],
  );
  return rows;
}

// ---- the claims of one organization (service.ts) --------------------------------------------------

/** A domain as an organization claimed it. */
export interface DomainClaimRow {
  organization_id: string;
  domain: string;
  verification_value: string;
  verified_at: Date | string | null;
}

const CLAIM_COLUMNS = 'organization_id, domain, verification_value, verified_at';

/** The organization's claim of a domain, or undefined. `forUpdate` locks it for the caller's transaction. */
export async function findClaim(
  db: Queryable,
  organizationId: string,
  domain: string,
  options: { forUpdate?: boolean } = {},
): Promise<DomainClaimRow | undefined> {
  const { rows } = await db.query<DomainClaimRow>(
    `SELECT ${CLAIM_COLUMNS} FROM organization_domains WHERE organization_id = $1 AND domain = $2${options.forUpdate ? ' FOR UPDATE' : ''}`,
    [organizationId, domain],
  );
  return rows[0];
}

/** Claim a domain for an organization; undefined when it had claimed it already (the claim stays as it was). */
export async function insertClaim(
  db: Queryable,
  organizationId: string,
  domain: string,
  verificationValue: string,
): Promise<DomainClaimRow | undefined> {
  const { rows } = await db.query<DomainClaimRow>(
    `INSERT INTO organization_domains (organization_id, domain, verification_value) VALUES ($1, $2, $3)
     ON CONFLICT (organization_id, domain) DO NOTHING
     RETURNING ${CLAIM_COLUMNS}`,
    [organizationId, domain, verificationValue],
  );
  return rows[0];
}

/**
 * The record was found: the claim is verified as of now. Raises a unique violation
 * (organization_domains_verified_once) when another organization has verified the domain.
 */
export async function markVerified(db: Queryable, organizationId: string, domain: string): Promise<void> {
  await db.query(
    `UPDATE organization_domains SET verified_at = now(), checked_at = now(), recheck_until = NULL
     WHERE organization_id = $1 AND domain = $2`,
    [organizationId, domain],
  );
}

/** The record of a claim that is not verified was looked for and not found. */
export async function markChecked(db: Queryable, organizationId: string, domain: string): Promise<void> {
  await db.query('UPDATE organization_domains SET checked_at = now() WHERE organization_id = $1 AND domain = $2', [organizationId, domain]);
}

/** The record of a verified domain is gone: it is verified no more. False when it was not verified (any longer). */
export async function markUnverified(db: Queryable, organizationId: string, domain: string): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE organization_domains SET verified_at = NULL, checked_at = now(), recheck_until = NULL
     WHERE organization_id = $1 AND domain = $2 AND verified_at IS NOT NULL`,
    [organizationId, domain],
  );
  return rowCount > 0;
}

/** Remove an organization's claim; the claim as it was, or undefined when there was none. */
export async function deleteClaim(db: Queryable, organizationId: string, domain: string): Promise<DomainClaimRow | undefined> {
  const { rows } = await db.query<DomainClaimRow>(
    `DELETE FROM organization_domains WHERE organization_id = $1 AND domain = $2 RETURNING ${CLAIM_COLUMNS}`,
    [organizationId, domain],
  );
  return rows[0];
}

/**
 * The domains of the organization at `path` (id `organizationId`) and of its ancestors, verified
 * or not (the operating contract: "the organization's own and those of its ancestors"); its own
 * first, then upward, each by domain. Only a verified one serves the subtree.
 */
export async function domainsOf(db: Queryable, organizationId: string, path: string): Promise<DomainClaimRow[]> {
  const { rows } = await db.query<DomainClaimRow>(
    `SELECT d.organization_id, d.domain, d.verification_value, d.verified_at
     FROM organization_domains d JOIN organizations o ON o.id = d.organization_id
     WHERE d.organization_id = $1 OR ${atOrAbove('o.path', '$2')}
     ORDER BY o.depth DESC, d.domain`,
    [organizationId, path],
  );
  return rows;
}

// ---- the re-verification (recheck.ts) ----------------------------------------------------------

/** A verified domain taken for a new look, with its organization. */
export interface DueDomainRow {
  organization_id: string;
  organization_path: string;
  organization_name: string;
  domain: string;
  verification_value: string;
}

/** How long an instance keeps the domains it took for a new look before others may take them. */
const RECHECK_LEASE = "interval '5 minutes'";

/**
 * Take up to `limit` verified domains last looked at `hours` before `now` or earlier (oldest
 * first), skipping those another instance holds (its row lock or its recheck_until) and those
 * this round took already (`skip`: organization id and domain, joined by a space). They are this
 * instance's until recheck_until; releaseRecheck or a recorded result gives them back.
 */
export async function takeDueDomains(db: Queryable, now: Date, hours: number, limit: number, skip: string[]): Promise<DueDomainRow[]> {
  const { rows } = await db.query<DueDomainRow>(
    `UPDATE organization_domains d SET recheck_until = now() + ${RECHECK_LEASE}
     FROM (SELECT organization_id, domain FROM organization_domains
           WHERE verified_at IS NOT NULL
             AND (checked_at IS NULL OR checked_at <= $1::timestamptz - make_interval(hours => $2::int))
             AND (recheck_until IS NULL OR recheck_until < now())
             AND organization_id::text || ' ' || domain <> ALL($4::text[])
           ORDER BY checked_at NULLS FIRST
           LIMIT $3
           FOR UPDATE SKIP LOCKED) due, organizations o
     WHERE d.organization_id = due.organization_id AND d.domain = due.domain AND o.id = d.organization_id
     RETURNING d.organization_id, o.path AS organization_path, o.name AS organization_name, d.domain, d.verification_value`,
    [now.toISOString(), hours, limit, skip],
  );
  return rows;
}

/** The record was found again: verified as of now. */
export async function confirmVerified(db: Queryable, organizationId: string, domain: string): Promise<void> {
  await db.query(
    `UPDATE organization_domains SET verified_at = now(), checked_at = now(), recheck_until = NULL
     WHERE organization_id = $1 AND domain = $2 AND verified_at IS NOT NULL`,
    [organizationId, domain],
  );
}

/** DNS did not answer: the domain is given back unchanged (checked_at stays, so the next round asks again). */
export async function releaseRecheck(db: Queryable, organizationId: string, domain: string): Promise<void> {
  await db.query('UPDATE organization_domains SET recheck_until = NULL WHERE organization_id = $1 AND domain = $2', [
    organizationId,
    domain,
  ]);
}

/** A member of the organization at `path` or of one of its ancestors (`depth`: its organization's), with the rights that tell its roles. */
export interface ManagerCandidateRow {
  email: string;
  first_name: string;
  language_code: string;
  rights: unknown;
  depth: number;
}

/** The members of the organization at `path` and of its ancestors, nearest organization first. */
export async function membersAtOrAbove(db: Queryable, path: string): Promise<ManagerCandidateRow[]> {
  const { rows } = await db.query<ManagerCandidateRow>(
    `SELECT u.email, u.first_name, u.language_code, m.rights, o.depth
     FROM organizations o JOIN memberships m ON m.organization_id = o.id JOIN users u ON u.id = m.user_id
     WHERE ${atOrAbove('o.path', '$1')}
     ORDER BY o.depth DESC, lower(u.email)`,
    [path],
  );
  return rows;
}
