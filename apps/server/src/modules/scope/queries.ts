import type { Queryable } from '../../db/client.js';

/** An organization as the services act on it. */
export interface OrganizationRow {
  id: string;
  parent_id: string | null;
  name: string;
  path: string;
  depth: number;
  can_create_sub_organization: boolean;
  sub_organization_can_have_children: boolean;
  max_sub_organizations: number | null;
}

export const ORG_COLUMNS =
  'o.id, o.parent_id, o.name, o.path, o.depth, o.can_create_sub_organization, o.sub_organization_can_have_children, o.max_sub_organizations';

/** One organization by id; `forUpdate` locks its row until the transaction ends. */
export async function findOrganizationById(
  db: Queryable,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<OrganizationRow | null> {
  const { rows } = await db.query<OrganizationRow>(
    `SELECT ${ORG_COLUMNS} FROM organizations o WHERE o.id = $1${options.forUpdate ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return rows[0] ?? null;
}
