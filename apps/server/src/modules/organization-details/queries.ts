import { preparedStatement, type Queryable } from '../../db/client.js';
import { EXPIRED_INVITATIONS_OF_SQL, PENDING_INVITATIONS_OF_SQL, type InvitationRow } from '../invitations/queries.js';
import type { AppRow } from '../organizations/queries.js';
import { ORG_COLUMNS, type OrganizationRow } from '../scope/queries.js';

/** SQL of the organization page: one organization with its sub-organizations, pending invitations, members, apps and domains. */

export interface ChildRow {
  id: string;
  name: string;
  path: string;
  has_children: boolean;
  has_members: boolean;
}

export interface MemberRow {
  id: string;
  organization_id: string;
  email: string;
  first_name: string;
  last_name: string;
  /** from json_agg: an ISO 8601 text, or null when the user never signed in */
  last_sign_in_at: string | null;
  /** an authenticator app or a passkey */
  has_second_factor: boolean;
  /** the membership's rights as stored */
  rights: unknown;
}

export interface OrganizationPageRow extends OrganizationRow {
  children: ChildRow[];
  invitations: InvitationRow[];
  expired_invitations: InvitationRow[];
  members: MemberRow[];
  apps: AppRow[];
  allowed_email_domains: string[];
}

/** Whether the user (a column) has a second factor: a confirmed authenticator app or a passkey (as factors/queries.ts counts them). */
const HAS_SECOND_FACTOR_SQL = (user: string) =>
  `(EXISTS (SELECT 1 FROM user_totp t WHERE t.user_id = ${user} AND t.confirmed_at IS NOT NULL)
    OR EXISTS (SELECT 1 FROM passkeys pk WHERE pk.user_id = ${user}))`;

// prepared: its plan (lookups by id) does not depend on the id, and planning it cost as much as running it
const ORGANIZATION_DETAILS_SQL = preparedStatement(
  'organization-details',
  `SELECT ${ORG_COLUMNS},
     (SELECT coalesce(json_agg(ch ORDER BY ch.path), '[]') FROM (
        SELECT c.id, c.name, c.path,
               EXISTS (SELECT 1 FROM organizations g WHERE g.parent_id = c.id) AS has_children,
               EXISTS (SELECT 1 FROM memberships cm WHERE cm.organization_id = c.id) AS has_members
        FROM organizations c WHERE c.parent_id = o.id) AS ch) AS children,
     (SELECT coalesce(json_agg(inv ORDER BY lower(inv.email)), '[]') FROM (${PENDING_INVITATIONS_OF_SQL}) AS inv) AS invitations,
     (SELECT coalesce(json_agg(inv ORDER BY lower(inv.email)), '[]') FROM (${EXPIRED_INVITATIONS_OF_SQL}) AS inv) AS expired_invitations,
     (SELECT coalesce(json_agg(mem ORDER BY lower(mem.email)), '[]') FROM (
        SELECT m.id, m.organization_id, m.email, u.first_name, u.last_name, u.last_sign_in_at, m.rights,
               ${HAS_SECOND_FACTOR_SQL('m.user_id')} AS has_second_factor
        FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.organization_id = o.id) AS mem) AS members,
     (SELECT coalesce(json_agg(app ORDER BY app.sort_order, app.client_id), '[]') FROM (
        SELECT oa.client_id, a.name, oa.available_for_sub_organizations, a.sort_order
        FROM organization_apps oa JOIN apps a ON a.client_id = oa.client_id WHERE oa.organization_id = o.id) AS app) AS apps,
     (SELECT coalesce(json_agg(ed.domain ORDER BY ed.domain), '[]') FROM organization_email_domains ed WHERE ed.organization_id = o.id) AS allowed_email_domains
   FROM organizations o WHERE o.id = $1`,
);

/**
 * One organization with everything its page lists (sub-organizations, pending invitations,
 * members, apps, allowed domains) in one statement: the page is read on every click in the tree,
 * and each round trip to PostgreSQL costs more CPU than the reads themselves (docs/performance.md).
 * Sub-organizations by path, invitations and members by e-mail, apps in catalogue order (as
 * listOrganizationApps), domains alphabetically (as listEmailDomains).
 */
export async function findOrganizationPage(db: Queryable, id: string): Promise<OrganizationPageRow | null> {
  const { rows } = await db.query<OrganizationPageRow>(ORGANIZATION_DETAILS_SQL, [id]);
  return rows[0] ?? null;
}

/** The facts of members that only userManagers see (second factor, rights), by membership id. */
export async function findMemberFacts(
  db: Queryable,
  memberIds: string[],
): Promise<Map<string, Pick<MemberRow, 'has_second_factor' | 'rights'>>> {
  if (memberIds.length === 0) return new Map();
  const { rows } = await db.query<Pick<MemberRow, 'id' | 'has_second_factor' | 'rights'>>(
    `SELECT m.id, m.rights, ${HAS_SECOND_FACTOR_SQL('m.user_id')} AS has_second_factor FROM memberships m WHERE m.id = ANY($1::uuid[])`,
    [memberIds],
  );
  return new Map(rows.map(({ id, ...facts }) => [id, facts]));
}
