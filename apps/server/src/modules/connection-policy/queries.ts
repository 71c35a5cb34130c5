import type { Queryable } from '../../db/client.js';

/** An organization's own connection policy, as read with those above it. */
export interface PolicyRow {
  organization_id: string;
  organization_name: string;
  depth: number;
  sub_organizations_may_connect: boolean;
}

/** The policies set on the organization of `path` and on its ancestors, the nearest first. */
export async function policiesAtOrAbove(db: Queryable, path: string): Promise<PolicyRow[]> {
  const { rows } = await db.query<PolicyRow>(
    `SELECT o.id AS organization_id, o.name AS organization_name, o.depth, p.sub_organizations_may_connect
     FROM connection_policies p
     JOIN organizations o ON o.id = p.organization_id
     WHERE o.path = $1::text OR left($1::text, length(o.path) + 1) = o.path || '/'
     ORDER BY o.depth DESC`,
    [path],
  );
  return rows;
}

/** Whether an organization strictly above the one of `path` keeps those below it from connecting. */
export async function connectingForbiddenAbove(db: Queryable, path: string): Promise<boolean> {
  const { rows } = await db.query<{ forbidden: boolean }>(
    `SELECT EXISTS (
       SELECT 1 FROM connection_policies p
       JOIN organizations o ON o.id = p.organization_id
       WHERE NOT p.sub_organizations_may_connect AND left($1::text, length(o.path) + 1) = o.path || '/'
     ) AS forbidden`,
    [path],
  );
  return rows[0]?.forbidden ?? false;
}

/** Set the organization's own policy (one row an organization). */
export async function upsertPolicy(db: Queryable, organizationId: string, mayConnect: boolean, setBy: string | null): Promise<void> {
  await db.query(
    `INSERT INTO connection_policies (organization_id, sub_organizations_may_connect, set_by)
     VALUES ($1, $2, $3)
     ON CONFLICT (organization_id) DO UPDATE SET sub_organizations_may_connect = $2, set_by = $3, updated_at = now()`,
    [organizationId, mayConnect, setBy],
  );
}
