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
