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
  /** updated_at to the microsecond, as text: the key of a connection's configuration in caches */
  version: string;
}

const COLUMNS = `c.id, c.organization_id, o.path AS organization_path, o.name AS organization_name, c.name, c.issuer, c.client_id,
  c.client_secret_sealed, c.domains, c.just_in_time, c.updated_at::text AS version`;
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

/** Of these domains, those another connection (not `exceptId`) already lists, with that connection. */
export async function domainsInUse(db: Queryable, domains: string[], exceptId: string | null): Promise<string[]> {
  const { rows } = await db.query<{ domain: string }>(
    `SELECT DISTINCT d AS domain FROM sso_connections c, unnest(c.domains) AS d
     WHERE d = ANY($1::text[]) AND ($2::uuid IS NULL OR c.id <> $2::uuid) ORDER BY 1`,
    [domains, exceptId],
  );
  return rows.map((r) => r.domain);
}

/** Changes of sso_connections wait for each other from here to the end of the transaction (one domain, one connection). */
export async function lockConnections(tx: Queryable): Promise<void> {
  await tx.query('LOCK TABLE sso_connections IN SHARE ROW EXCLUSIVE MODE');
}

export async function insertConnection(
  tx: Queryable,
  c: {
    organizationId: string;
    name: string;
    issuer: string;
    clientId: string;
    clientSecretSealed: string | null;
    domains: string[];
    justInTime: boolean;
  },
): Promise<string> {
  const { rows } = await tx.query<{ id: string }>(
    `INSERT INTO sso_connections (organization_id, name, issuer, client_id, client_secret_sealed, domains, just_in_time)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
    [c.organizationId, c.name, c.issuer, c.clientId, c.clientSecretSealed, c.domains, c.justInTime],
  );
  return rows[0]!.id;
}

export async function updateConnection(
  tx: Queryable,
  id: string,
  c: { name: string; issuer: string; clientId: string; clientSecretSealed: string | null; domains: string[]; justInTime: boolean },
): Promise<void> {
  await tx.query(
    `UPDATE sso_connections SET name = $2, issuer = $3, client_id = $4, client_secret_sealed = $5, domains = $6, just_in_time = $7,
       updated_at = clock_timestamp()
     WHERE id = $1`,
    [id, c.name, c.issuer, c.clientId, c.clientSecretSealed, c.domains, c.justInTime],
  );
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

/** SQL: the connections that list the domain $n and whose organization has it verified at or above. */
function servingConnectionsSql(domainParam: string): string {
  return `SELECT c.id, c.name, o.path AS organization_path FROM sso_connections c JOIN organizations o ON o.id = c.organization_id
    WHERE ${domainParam}::text = ANY(c.domains)
      AND EXISTS (SELECT 1 FROM organization_domains d JOIN organizations dorg ON dorg.id = d.organization_id
                  WHERE d.domain = ${domainParam}::text AND d.verified_at IS NOT NULL AND ${atOrAbove('dorg.path', 'o.path')})`;
}

export interface ServingConnection {
  id: string;
  name: string;
  organization_path: string;
}

/** The connection that serves a domain (one domain, one connection; the first should data hold more), or undefined. */
export async function connectionServing(db: Queryable, domain: string): Promise<ServingConnection | undefined> {
  const { rows } = await db.query<ServingConnection>(`${servingConnectionsSql('$1')} ORDER BY c.created_at LIMIT 1`, [domain]);
  return rows[0];
}

export interface AddressRoutingRow {
  has_account: boolean;
  external_idp: string | null;
  /** the account's organization path (null: no account, or one without a membership) */
  member_path: string | null;
  connection_id: string | null;
  connection_name: string | null;
  connection_path: string | null;
  /** the account is a member of the serving connection's organization's subtree */
  member_below: boolean;
}

/** An address's account (its link, its organization) and the connection serving its domain, in one statement. */
export async function addressRouting(db: Queryable, email: string, domain: string): Promise<AddressRoutingRow> {
  const { rows } = await db.query<AddressRoutingRow>(
    `WITH account AS (
       SELECT u.external_idp, m.organization_path FROM users u LEFT JOIN memberships m ON m.user_id = u.id WHERE lower(u.email) = lower($1)
     ), serving AS (${servingConnectionsSql('$2')} ORDER BY c.created_at LIMIT 1)
     SELECT EXISTS (SELECT 1 FROM account) AS has_account, a.external_idp, a.organization_path AS member_path,
            s.id AS connection_id, s.name AS connection_name, s.organization_path AS connection_path,
            coalesce(s.organization_path IS NOT NULL AND a.organization_path IS NOT NULL
                     AND ${subtreeCondition('a.organization_path', 's.organization_path')}, false) AS member_below
     FROM (SELECT 1) AS one LEFT JOIN account a ON true LEFT JOIN serving s ON true`,
    [email, domain],
  );
  return rows[0]!;
}
