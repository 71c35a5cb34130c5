import type { Queryable } from '../../db/client.js';
import { subtreeCondition } from '../../db/sql.js';
import { atOrAbove } from '../domains/queries.js';

/** SQL of single sign-on connections (migrations 0060 and 0062). */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isConnectionId = (id: string): boolean => UUID.test(id);

export interface ConnectionRow {
  id: string;
  organization_id: string;
  organization_path: string;
  organization_name: string;
  name: string;
  issuer: string;
  client_id: string;
  client_secret_sealed: string | null;
  domains: string[];
  just_in_time: boolean;
  active: boolean;
  /** updated_at to the microsecond, as text: the key of a connection's configuration in caches */
  version: string;
}

const COLUMNS = `c.id, c.organization_id, o.path AS organization_path, o.name AS organization_name, c.name, c.issuer, c.client_id,
  c.client_secret_sealed, c.domains, c.just_in_time, c.active, c.updated_at::text AS version`;
const FROM = 'sso_connections c JOIN organizations o ON o.id = c.organization_id';

export async function findConnection(db: Queryable, id: string): Promise<ConnectionRow | undefined> {
  if (!isConnectionId(id)) return undefined;
  const { rows } = await db.query<ConnectionRow>(`SELECT ${COLUMNS} FROM ${FROM} WHERE c.id = $1`, [id]);
  return rows[0];
}

/** The connections that apply at a path: of the organization there and of its ancestors, the highest first. */
export async function connectionsAtOrAbove(db: Queryable, path: string): Promise<ConnectionRow[]> {
  const { rows } = await db.query<ConnectionRow>(
    `SELECT ${COLUMNS} FROM ${FROM} WHERE ${atOrAbove('o.path', '$1')} ORDER BY o.depth, lower(c.name), c.id`,
    [path],
  );
  return rows;
}

/** The provider's root organization: the EXTERNAL_IDP_* provider's connection is its. */
export async function rootOrganization(db: Queryable): Promise<{ id: string; path: string }> {
  const { rows } = await db.query<{ id: string; path: string }>(
    'SELECT id, path FROM organizations WHERE parent_id IS NULL ORDER BY created_at LIMIT 1',
  );
  return rows[0]!;
}

/** Whether any connection exists (the login's fast answer while none does: routing.ts). */
export async function anyConnection(db: Queryable): Promise<boolean> {
  const { rows } = await db.query<{ any: boolean }>('SELECT EXISTS (SELECT 1 FROM sso_connections) AS any');
  return rows[0]?.any === true;
}

/**
 * Of these domains, those another connection (not `exceptId`) of the same organization already
 * lists: one organization, one connection a domain (organizations below it may have their own).
 */
export async function domainsInUse(db: Queryable, organizationId: string, domains: string[], exceptId: string | null): Promise<string[]> {
  const { rows } = await db.query<{ domain: string }>(
    `SELECT DISTINCT d AS domain FROM sso_connections c, unnest(c.domains) AS d
     WHERE c.organization_id = $1 AND d = ANY($2::text[]) AND ($3::uuid IS NULL OR c.id <> $3::uuid) ORDER BY 1`,
    [organizationId, domains, exceptId],
  );
  return rows.map((r) => r.domain);
}

/** Changes of sso_connections wait for each other from here to the end of the transaction (one domain, one connection an organization). */
export async function lockConnections(tx: Queryable): Promise<void> {
  await tx.query('LOCK TABLE sso_connections IN SHARE ROW EXCLUSIVE MODE');
}

/** What a connection's row holds besides its organization (insertConnection, updateConnection). */
export interface ConnectionSettings {
  name: string;
  issuer: string;
  clientId: string;
  clientSecretSealed: string | null;
  domains: string[];
  justInTime: boolean;
  active: boolean;
}

export async function insertConnection(tx: Queryable, c: ConnectionSettings & { organizationId: string }): Promise<string> {
  const { rows } = await tx.query<{ id: string }>(
    `INSERT INTO sso_connections (organization_id, name, issuer, client_id, client_secret_sealed, domains, just_in_time, active)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
    [c.organizationId, c.name, c.issuer, c.clientId, c.clientSecretSealed, c.domains, c.justInTime, c.active],
  );
  return rows[0]!.id;
}

export async function updateConnection(tx: Queryable, id: string, c: ConnectionSettings): Promise<void> {
  await tx.query(
    `UPDATE sso_connections SET name = $2, issuer = $3, client_id = $4, client_secret_sealed = $5, domains = $6, just_in_time = $7,
       active = $8, updated_at = clock_timestamp()
     WHERE id = $1`,
    [id, c.name, c.issuer, c.clientId, c.clientSecretSealed, c.domains, c.justInTime, c.active],
  );
}

/**
 * A connection moved to another provider (issuer or client): the subjects its accounts were linked
 * to mean nothing there. The accounts stay the connection's and are linked again by their verified
 * address at their next sign-in (identity/upstream-link.ts), so that the new provider cannot sign
 * in as an account by issuing its old subject.
 */
export async function forgetSubjects(tx: Queryable, connectionId: string): Promise<void> {
  await tx.query('UPDATE users SET external_subject = NULL, updated_at = now() WHERE external_idp = $1', [connectionId]);
}

/** A member a connection serves, or would serve (service.ts: who a change of it acts on). */
export interface ServedMember {
  user_id: string;
  email: string;
  first_name: string;
  last_name: string;
  language_code: string;
  rights: unknown;
  organization_path: string;
  organization_id: string;
  organization_name: string;
  /** the connection (or 'external') the account is linked to, if any */
  external_idp: string | null;
}

/**
 * The members a connection of the organization at `path` listing `domains` serves: members of the
 * subtree with an address of those domains, and accounts linked to the connection (`connectionId`).
 * A superset where a nearer connection below serves some of them: a change is checked against
 * everyone it could reach.
 */
export async function membersReached(
  db: Queryable,
  path: string,
  domains: readonly string[],
  connectionId: string | null,
): Promise<ServedMember[]> {
  const { rows } = await db.query<ServedMember>(
    `SELECT u.id AS user_id, u.email, u.first_name, u.last_name, u.language_code, m.rights, m.organization_path,
            m.organization_id, o.name AS organization_name, u.external_idp
     FROM memberships m JOIN users u ON u.id = m.user_id JOIN organizations o ON o.id = m.organization_id
     WHERE (${subtreeCondition('m.organization_path', '$1')} AND lower(split_part(u.email, '@', 2)) = ANY($2::text[]))
        OR ($3::text IS NOT NULL AND u.external_idp = $3::text)
     ORDER BY lower(u.email)`,
    [path, domains, connectionId],
  );
  return rows;
}

export async function deleteConnection(tx: Queryable, id: string): Promise<void> {
  await tx.query('DELETE FROM sso_connections WHERE id = $1', [id]);
}

/**
 * Unlink the accounts of a connection being deleted: they keep their membership, lose the link
 * (so that "forgot password" gives them a password of the portal) and their portal sessions end.
 * Returns their ids.
 */
export async function unlinkAccounts(tx: Queryable, connectionId: string): Promise<string[]> {
  const { rows } = await tx.query<{ id: string }>(
    `UPDATE users SET external_idp = NULL, external_subject = NULL, updated_at = now() WHERE external_idp = $1 RETURNING id`,
    [connectionId],
  );
  const ids = rows.map((r) => r.id);
  if (ids.length) await tx.query('DELETE FROM sessions WHERE user_id = ANY($1::uuid[])', [ids]);
  return ids;
}

/** The members of an organization itself (not its subtree) with what tells their roles and their language. */
export async function membersOf(
  db: Queryable,
  organizationId: string,
): Promise<{ email: string; first_name: string; language_code: string; rights: unknown }[]> {
  const { rows } = await db.query<{ email: string; first_name: string; language_code: string; rights: unknown }>(
    `SELECT u.email, u.first_name, u.language_code, m.rights FROM memberships m JOIN users u ON u.id = m.user_id
     WHERE m.organization_id = $1 ORDER BY lower(u.email)`,
    [organizationId],
  );
  return rows;
}

// ---- home-realm discovery (routing.ts) ----------------------------------------------------------

/** A connection that lists a domain, with its organization's path. */
export interface DomainConnection {
  id: string;
  name: string;
  path: string;
  active: boolean;
}

export interface DomainRoutingRow {
  /** the address's account: its link and its organization's path (null: no account) */
  account: { external_idp: string | null; organization_path: string | null } | null;
  /** the paths of the organizations that verified the domain (one, as domains/service.ts claims it) */
  verified_at: string[];
  /** the connections that list the domain, the highest first */
  connections: DomainConnection[];
}

/** Who verified a domain (the parameter `domain`, e.g. '$2'): their organizations' paths. */
const verifiedAt = (
  domain: string,
) => `coalesce((SELECT array_agg(o.path) FROM organization_domains d JOIN organizations o ON o.id = d.organization_id
                 WHERE d.domain = ${domain} AND d.verified_at IS NOT NULL), '{}') AS verified_at`;
/** The connections that list a domain (the parameter `domain`), the highest first. */
const connectionsListing = (
  domain: string,
) => `coalesce((SELECT json_agg(json_build_object('id', c.id, 'name', c.name, 'path', o.path, 'active', c.active)
                                 ORDER BY o.depth, c.created_at)
                 FROM sso_connections c JOIN organizations o ON o.id = c.organization_id WHERE ${domain} = ANY(c.domains)), '[]') AS connections`;

/** What home-realm discovery needs of an address, in one statement: its account, who verified its domain, the connections listing it. */
export async function domainRouting(db: Queryable, email: string, domain: string): Promise<DomainRoutingRow> {
  const { rows } = await db.query<DomainRoutingRow>(
    `SELECT
       (SELECT json_build_object('external_idp', u.external_idp, 'organization_path', m.organization_path)
          FROM users u LEFT JOIN memberships m ON m.user_id = u.id WHERE lower(u.email) = lower($1) LIMIT 1) AS account,
       ${verifiedAt('$2')},
       ${connectionsListing('$2')}`,
    [email, domain],
  );
  return rows[0]!;
}

/** What home-realm discovery needs of a domain, for accounts already read (a connection's members): who verified it, the connections listing it. */
export async function domainFacts(db: Queryable, domain: string): Promise<Omit<DomainRoutingRow, 'account'>> {
  const { rows } = await db.query<Omit<DomainRoutingRow, 'account'>>(`SELECT ${verifiedAt('$1')}, ${connectionsListing('$1')}`, [domain]);
  return rows[0]!;
}
