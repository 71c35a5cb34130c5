import type { OrganizationNode } from '@partner-portal/contracts';
import { preparedStatement, type Queryable } from '../../db/client.js';
import { descendantsCondition, subtreeCondition } from '../../db/sql.js';
import { ORG_COLUMNS, type OrganizationRow } from '../scope/queries.js';

/** SQL of the organization tree. Subtree conditions are index ranges on the COLLATE "C" path. */

/** The provider's root organization (the one without a parent), if the tree has been made. */
export async function findRootOrganization(db: Queryable): Promise<{ id: string; path: string } | null> {
  const { rows } = await db.query<{ id: string; path: string }>('SELECT id, path FROM organizations WHERE parent_id IS NULL');
  return rows[0] ?? null;
}

export async function findOrganizationByPath(db: Queryable, path: string): Promise<OrganizationRow | null> {
  const { rows } = await db.query<OrganizationRow>(`SELECT ${ORG_COLUMNS} FROM organizations o WHERE o.path = $1`, [path]);
  return rows[0] ?? null;
}

const UNIT_SEPARATOR = '\u001f';
type SubtreeRow = Omit<OrganizationNode, 'apps' | 'allowed_email_domains' | 'second_factor_required' | 'children'> & {
  second_factor_required: true | null;
  apps: string | null;
  allowed_email_domains: string | null;
};

/**
 * Every organization of a subtree as a node of GET /api/organizations/tree (children still empty),
 * sorted by path, with member and pending-invitation counts, apps and allowed domains. One range
 * scan of the path index; per organization a few index probes (apps, domains, pending
 * invitations); member counts come from organization_member_counts (kept by triggers, 0020).
 *
 * For 10,000 organizations this is the tree request's memory: the rows come with the nodes' field
 * names, in the nodes' order, and become the nodes in place (no copies: each copy of 10,000 objects
 * was promoted to the old heap and the process grew by ~60 MB over a dozen builds). Apps and
 * domains come as one text joined by the unit separator (U+001F): pg's text-array parser cost a
 * fifth of the request.
 */
export async function listSubtree(db: Queryable, rootPath: string): Promise<OrganizationNode[]> {
  const { rows } = await db.query<SubtreeRow>(
    `SELECT o.id AS key, o.name AS label, o.parent_id, o.path, o.can_create_sub_organization, o.sub_organization_can_have_children,
            (SELECT count(*)::int FROM invitations i WHERE i.organization_id = o.id AND i.state = 'PENDING' AND i.expires_at > now()) AS pending_invitations,
            COALESCE(mc.members, 0) AS members,
            (SELECT string_agg(oa.client_id, chr(31) ORDER BY oa.client_id) FROM organization_apps oa WHERE oa.organization_id = o.id) AS apps,
            (SELECT string_agg(ed.domain, chr(31) ORDER BY ed.domain) FROM organization_email_domains ed WHERE ed.organization_id = o.id) AS allowed_email_domains,
            CASE WHEN EXISTS (SELECT 1 FROM second_factor_policies p WHERE p.organization_id = o.id) THEN true END AS second_factor_required
     FROM organizations o
     LEFT JOIN organization_member_counts mc ON mc.organization_id = o.id
     WHERE ${subtreeCondition('o.path', '$1')}
     ORDER BY o.path`,
    [rootPath],
  );
  const list = (joined: string | null) => (joined ? joined.split(UNIT_SEPARATOR) : []);
  return rows.map((row): OrganizationNode =>
    Object.assign(row, {
      apps: list(row.apps),
      allowed_email_domains: list(row.allowed_email_domains),
      // only where a policy is set (undefined is left out of the JSON: 10,000 nodes, few marked)
      second_factor_required: row.second_factor_required ?? undefined,
      children: [],
    }),
  );
}

/** The time the first pending invitation of a subtree expires (its tree's counts change then), or null. */
export async function firstPendingInvitationExpiry(db: Queryable, rootPath: string): Promise<Date | null> {
  const { rows } = await db.query<{ expires_at: Date | string | null }>(
    `SELECT min(i.expires_at) AS expires_at
     FROM organizations o JOIN invitations i ON i.organization_id = o.id AND i.state = 'PENDING' AND i.expires_at > now()
     WHERE ${subtreeCondition('o.path', '$1')}`,
    [rootPath],
  );
  const at = rows[0]?.expires_at;
  return at ? new Date(at) : null;
}

const TREE_CHANGES_SQL = preparedStatement(
  'organization-tree-changes',
  `SELECT pg_current_snapshot()::text AS snapshot,
          EXISTS (SELECT 1 FROM organization_tree_changes c
                  WHERE c.txid >= pg_snapshot_xmin($1::pg_snapshot) AND NOT pg_visible_in_snapshot(c.txid, $1::pg_snapshot)) AS changed`,
);

/**
 * Whether anything the tree shows changed after `snapshot` (a pg_snapshot as text; null: unknown),
 * with the snapshot of this statement (0030_organization_tree_changes.sql).
 */
export async function treeChangesSince(db: Queryable, snapshot: string | null): Promise<{ snapshot: string; changed: boolean }> {
  const { rows } = await db.query<{ snapshot: string; changed: boolean | null }>(TREE_CHANGES_SQL, [snapshot]);
  const row = rows[0]!;
  return { snapshot: row.snapshot, changed: snapshot === null || row.changed !== false };
}

/** The clean-up job: change records older than any cached tree (TREE_CACHE_MAX_AGE_MS). */
export async function sweepTreeChanges(db: Queryable): Promise<void> {
  await db.query(`DELETE FROM organization_tree_changes WHERE recorded_at < now() - interval '1 hour'`);
}

export async function countChildren(db: Queryable, parentId: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM organizations WHERE parent_id = $1', [parentId]);
  return rows[0]?.n ?? 0;
}

export async function countMembers(db: Queryable, organizationId: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM memberships WHERE organization_id = $1', [organizationId]);
  return rows[0]?.n ?? 0;
}

export interface AppRow {
  client_id: string;
  name: string;
  available_for_sub_organizations: boolean;
}

export async function listOrganizationApps(db: Queryable, organizationId: string): Promise<AppRow[]> {
  const { rows } = await db.query<AppRow>(
    `SELECT oa.client_id, a.name, oa.available_for_sub_organizations
     FROM organization_apps oa JOIN apps a ON a.client_id = oa.client_id
     WHERE oa.organization_id = $1 ORDER BY a.sort_order, a.client_id`,
    [organizationId],
  );
  return rows;
}

export async function listEmailDomains(db: Queryable, organizationId: string): Promise<string[]> {
  const { rows } = await db.query<{ domain: string }>(
    'SELECT domain FROM organization_email_domains WHERE organization_id = $1 ORDER BY domain',
    [organizationId],
  );
  return rows.map((r) => r.domain);
}

export async function replaceEmailDomains(db: Queryable, organizationId: string, domains: string[]): Promise<void> {
  await db.query('DELETE FROM organization_email_domains WHERE organization_id = $1', [organizationId]);
  if (domains.length) {
    await db.query(
      'INSERT INTO organization_email_domains (organization_id, domain) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING',
      [organizationId, domains],
    );
  }
}

export async function insertOrganization(
  db: Queryable,
  o: { parentId: string; name: string; path: string; depth: number; canCreate: boolean; subCanHaveChildren: boolean },
): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO organizations (parent_id, name, path, depth, can_create_sub_organization, sub_organization_can_have_children)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    [o.parentId, o.name, o.path, o.depth, o.canCreate, o.subCanHaveChildren],
  );
  return rows[0]!.id;
}

/** How many organizations there are (none before bootstrap.ts has made the provider's root). */
export async function countOrganizations(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM organizations');
  return rows[0]?.n ?? 0;
}

/** The provider's root organization (bootstrap.ts): no parent, may create sub-organizations that may have children. */
export async function insertRootOrganization(db: Queryable, name: string, path: string): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO organizations (parent_id, name, path, depth, can_create_sub_organization, sub_organization_can_have_children)
     VALUES (NULL, $1, $2, 0, true, true) RETURNING id`,
    [name, path],
  );
  return rows[0]!.id;
}

/** Every app of the catalogue for an organization, each available for its sub-organizations (the provider's root, bootstrap.ts). */
export async function insertEveryApp(db: Queryable, organizationId: string): Promise<void> {
  await db.query(
    `INSERT INTO organization_apps (organization_id, client_id, available_for_sub_organizations)
     SELECT $1, client_id, true FROM apps`,
    [organizationId],
  );
}

export async function insertOrganizationApps(
  db: Queryable,
  organizationId: string,
  clientIds: string[],
  availableForSub: string[],
): Promise<void> {
  if (!clientIds.length) return;
  await db.query(
    `INSERT INTO organization_apps (organization_id, client_id, available_for_sub_organizations)
     SELECT $1, c, c = ANY($3::text[]) FROM unnest($2::text[]) AS c`,
    [organizationId, clientIds, availableForSub],
  );
}

export async function deleteOrganizationApps(db: Queryable, organizationId: string): Promise<void> {
  await db.query('DELETE FROM organization_apps WHERE organization_id = $1', [organizationId]);
}

/** Descendants keep only the apps in the allowed set. Returns how many assignments were removed. */
export async function restrictDescendantApps(db: Queryable, path: string, allowed: string[]): Promise<number> {
  const { rowCount } = await db.query(
    `DELETE FROM organization_apps oa USING organizations o
     WHERE o.id = oa.organization_id AND ${descendantsCondition('o.path', '$1')} AND NOT (oa.client_id = ANY($2::text[]))`,
    [path, allowed],
  );
  return rowCount;
}

export async function renameOrganization(db: Queryable, id: string, name: string): Promise<void> {
  await db.query('UPDATE organizations SET name = $2, updated_at = now() WHERE id = $1', [id, name]);
}

/** Move a subtree to a new path: the organizations and the members' path copies. */
export async function movePath(db: Queryable, oldPath: string, newPath: string): Promise<void> {
  await db.query(
    `UPDATE organizations SET path = $2::text || substr(path, length($1::text) + 1), updated_at = now() WHERE ${subtreeCondition('path', '$1')}`,
    [oldPath, newPath],
  );
  await db.query(
    `UPDATE memberships SET organization_path = $2::text || substr(organization_path, length($1::text) + 1), updated_at = now() WHERE ${subtreeCondition('organization_path', '$1')}`,
    [oldPath, newPath],
  );
}

export async function setCanCreateSubOrganizations(db: Queryable, id: string, path: string, value: boolean): Promise<void> {
  if (value) {
    await db.query(
      'UPDATE organizations SET can_create_sub_organization = true, sub_organization_can_have_children = true, updated_at = now() WHERE id = $1',
      [id],
    );
  } else {
    await db.query('UPDATE organizations SET can_create_sub_organization = false, updated_at = now() WHERE id = $1', [id]);
    await db.query(
      `UPDATE organizations SET sub_organization_can_have_children = false, updated_at = now() WHERE ${subtreeCondition('path', '$1')}`,
      [path],
    );
  }
}

/**
 * What an organization's deletion takes with it (its rows go by the foreign keys' cascade), for
 * its audit entry: its service accounts, SCIM tokens, webhooks, domains and sign-in connections.
 * Only the kinds it has.
 */
export async function integrationsOf(db: Queryable, id: string): Promise<Record<string, unknown[]>> {
  const { rows } = await db.query<{ kind: string; items: unknown[] }>(
    `SELECT 'service_accounts' AS kind, json_agg(json_build_object('id', id, 'name', name, 'client_id', client_id)) AS items
       FROM service_accounts WHERE organization_id = $1 HAVING count(*) > 0
     UNION ALL SELECT 'scim_tokens', json_agg(json_build_object('id', id, 'name', name)) FROM scim_tokens WHERE organization_id = $1 HAVING count(*) > 0
     UNION ALL SELECT 'webhooks', json_agg(json_build_object('id', id, 'url', url)) FROM webhooks WHERE organization_id = $1 HAVING count(*) > 0
     UNION ALL SELECT 'domains', json_agg(domain) FROM organization_domains WHERE organization_id = $1 HAVING count(*) > 0
     UNION ALL SELECT 'sso_connections', json_agg(json_build_object('id', id, 'name', name, 'issuer', issuer))
       FROM sso_connections WHERE organization_id = $1 HAVING count(*) > 0`,
    [id],
  );
  return Object.fromEntries(rows.map((r) => [r.kind, r.items]));
}

/** Delete an organization; the tokens of its service accounts go with the accounts (their rows cascade). */
export async function deleteOrganization(db: Queryable, id: string): Promise<void> {
  await db.query(
    `DELETE FROM oidc_payloads WHERE model = 'ClientCredentials'
       AND payload->>'clientId' IN (SELECT client_id FROM service_accounts WHERE organization_id = $1)`,
    [id],
  );
  await db.query('DELETE FROM organizations WHERE id = $1', [id]);
}

export async function readFeatures(db: Queryable): Promise<Record<string, boolean>> {
  const { rows } = await db.query<{ name: string; enabled: boolean }>('SELECT name, enabled FROM features');
  return Object.fromEntries(rows.map((r) => [r.name, r.enabled]));
}
