import { CLIENT_IDS, emptyRights, type Rights } from '@partner-portal/contracts';
import type { HttpClient } from '../support/http.js';
import type { TestPortal } from '../support/portal.js';

/**
 * A tree at least four levels deep, with actors, inserted directly in SQL:
 *
 *   nedap (root, provider)                     admin (bootstrap administrator, developer)
 *   ├── dealer-a            can create        plainA, userMgrA, orgMgrA, fullA
 *   │   ├── dealer-a/north  can create        mgrNorth (user + organization manager)
 *   │   │   └── dealer-a/north/farm-1          farmer
 *   │   │       └── dealer-a/north/farm-1/barn (empty leaf, level 4)
 *   │   └── dealer-a/south                     (empty leaf)
 *   └── dealer-b            can create        mgrB (user + organization manager of the sibling)
 */
export interface Tree {
  root: Org;
  a: Org;
  north: Org;
  farm: Org;
  barn: Org;
  south: Org;
  b: Org;
}
export interface Org {
  id: string;
  path: string;
  name: string;
}
export interface ActorRef {
  userId: string;
  memberId: string;
  email: string;
  client: HttpClient;
}
export interface Fixture {
  tree: Tree;
  admin: ActorRef;
  plainA: ActorRef;
  userMgrA: ActorRef;
  orgMgrA: ActorRef;
  fullA: ActorRef;
  mgrNorth: ActorRef;
  farmer: ActorRef;
  mgrB: ActorRef;
}

/** The apps an organization of the tree has unless a test says otherwise: all but the last three of the catalogue. */
const OTHER_APPS: string[] = [CLIENT_IDS.profit_calculator, CLIENT_IDS.control_tower, CLIENT_IDS.ordering_tools];
export const PARTNER_APPS = Object.values(CLIENT_IDS).filter((app) => !OTHER_APPS.includes(app));

export function rights(set: (r: Rights) => void = () => undefined): Rights {
  const r = emptyRights();
  set(r);
  return r;
}

let counter = 0;

export async function createOrg(
  portal: TestPortal,
  parent: Org,
  name: string,
  options: { canCreate?: boolean; subCanHaveChildren?: boolean; apps?: string[]; availableForSub?: string[]; max?: number | null } = {},
): Promise<Org> {
  const segment = name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  const path = `${parent.path}/${segment}`;
  const depth = path.split('/').length - 1;
  const canCreate = options.canCreate ?? false;
  const { rows } = await portal.services.db.query<{ id: string }>(
    `INSERT INTO organizations (parent_id, name, path, depth, can_create_sub_organization, sub_organization_can_have_children, max_sub_organizations)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
    [parent.id, name, path, depth, canCreate, options.subCanHaveChildren ?? canCreate, options.max ?? null],
  );
  const id = rows[0]!.id;
  const apps = options.apps ?? PARTNER_APPS;
  const available = options.availableForSub ?? apps;
  for (const app of apps) {
    await portal.services.db.query(
      'INSERT INTO organization_apps (organization_id, client_id, available_for_sub_organizations) VALUES ($1, $2, $3)',
      [id, app, available.includes(app)],
    );
  }
  return { id, path, name };
}

export async function createMember(
  portal: TestPortal,
  org: Org,
  label: string,
  /** the member's rights, or how they differ from none */
  given: Rights | ((r: Rights) => void),
  options: { isDeveloper?: boolean; language?: string } = {},
): Promise<ActorRef> {
  const r = typeof given === 'function' ? rights(given) : given;
  const email = `${label.toLowerCase()}.${++counter}@${org.path.split('/').pop()}.example.com`;
  const user = await portal.services.db.query<{ id: string }>(
    `INSERT INTO users (email, first_name, last_name, language_code, is_developer) VALUES ($1, $2, 'Tester', $3, $4) RETURNING id`,
    [email, label, options.language ?? 'en', options.isDeveloper ?? false],
  );
  const userId = user.rows[0]!.id;
  const m = await portal.services.db.query<{ id: string }>(
    'INSERT INTO memberships (organization_id, user_id, email, organization_path, rights) VALUES ($1, $2, $3, $4, $5) RETURNING id',
    [org.id, userId, email, org.path, JSON.stringify(r)],
  );
  return { userId, memberId: m.rows[0]!.id, email, client: await portal.sessionFor(userId) };
}

/** The root organization (the provider's, made by the bootstrap). */
export async function rootOrg(portal: TestPortal): Promise<Org> {
  const { rows } = await portal.services.db.query<Org>('SELECT id, path, name FROM organizations WHERE id = $1', [
    portal.rootOrganizationId,
  ]);
  return rows[0]!;
}

export async function buildFixture(portal: TestPortal): Promise<Fixture> {
  const root = await rootOrg(portal);
  const a = await createOrg(portal, root, 'Dealer A', { canCreate: true });
  const north = await createOrg(portal, a, 'North', { canCreate: true });
  const farm = await createOrg(portal, north, 'Farm 1', { canCreate: true });
  const barn = await createOrg(portal, farm, 'Barn');
  const south = await createOrg(portal, a, 'South');
  const b = await createOrg(portal, root, 'Dealer B', { canCreate: true });
  const adminMember = await portal.services.db.query<{ id: string; email: string }>(
    'SELECT id, email FROM memberships WHERE user_id = $1',
    [portal.adminUserId],
  );
  const admin: ActorRef = {
    userId: portal.adminUserId,
    memberId: adminMember.rows[0]!.id,
    email: adminMember.rows[0]!.email,
    client: await portal.sessionFor(portal.adminUserId),
  };
  const managerOfBoth = rights((r) => {
    r.partner_portal.user_user_manager = true;
    r.partner_portal.user_sub_organization_manager = true;
  });
  return {
    tree: { root, a, north, farm, barn, south, b },
    admin,
    plainA: await createMember(portal, a, 'plain', (r) => (r.media_library.user_access = true)),
    userMgrA: await createMember(portal, a, 'usermgr', (r) => (r.partner_portal.user_user_manager = true)),
    orgMgrA: await createMember(portal, a, 'orgmgr', (r) => (r.partner_portal.user_sub_organization_manager = true)),
    fullA: await createMember(portal, a, 'fulla', (r) => (r.partner_portal.user_full_permission = true)),
    mgrNorth: await createMember(portal, north, 'mgrnorth', managerOfBoth),
    farmer: await createMember(portal, farm, 'farmer', rights()),
    mgrB: await createMember(portal, b, 'mgrb', managerOfBoth),
  };
}

/**
 * Give an actor of the fixture other rights (e.g. a userManager who may hand out what it holds:
 * docs/security.md, "Delegated administration").
 */
async function setRights(portal: TestPortal, actor: ActorRef, r: Rights): Promise<void> {
  await portal.services.db.query('UPDATE memberships SET rights = $1 WHERE id = $2', [JSON.stringify(r), actor.memberId]);
}

/** A userManager who also holds every right of the loyalty app. */
const userManagerWithLoyalty = () =>
  rights((r) => {
    r.partner_portal.user_user_manager = true;
    r.loyalty.user_full_permission = true;
    r.loyalty.user_access = true;
  });

/** The fixture, its userManager of dealer-a (userMgrA) holding the loyalty rights it hands out or takes away. */
export async function buildFixtureWithLoyaltyManager(portal: TestPortal): Promise<Fixture> {
  const f = await buildFixture(portal);
  await setRights(portal, f.userMgrA, userManagerWithLoyalty());
  return f;
}
