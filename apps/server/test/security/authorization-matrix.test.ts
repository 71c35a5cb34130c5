import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { startPortal } from '../support/portal.js';
import { apiRoutes, fillPath, type ApiRoute } from './support/routes.js';
import { ACTORS, buildWorld, uniqueEmail, USER_PASSWORD, type ActorName, type World } from './support/world.js';

/**
 * The authorization matrix (issue 7 §1): every /api route of the running portal, read from its
 * router, against every actor. A route without an entry in MATRIX fails, so that each new
 * endpoint has to be classified here. Expected:
 *   allow → anything but 401/403 (and never a 5xx);
 *   deny  → 401 for anonymous; 403 (or 404 where the route hides the resource) for the others.
 *
 * Actors (support/world.ts): the organization tree root → partner → dealer-a → north, and
 * partner → dealer-b. Routes that take an organization or a member or an invitation get one in
 * north (a fresh one for every request that changes or removes it).
 */
type Outcome = 'allow' | 'deny' | 'any';
type Expectation = Record<ActorName | 'providerAdmin', Outcome>;

const ALL: ActorName[] = [...ACTORS];
function only(...allowed: (ActorName | 'providerAdmin')[]): Expectation {
  const e = { providerAdmin: allowed.includes('providerAdmin') ? 'allow' : 'deny' } as Expectation;
  for (const a of ALL) e[a] = allowed.includes(a) ? 'allow' : 'deny';
  return e;
}
const PUBLIC = { ...only(...ALL, 'providerAdmin') };
/** callable by anyone; the status depends on the state of the flow (e.g. logout without a session) */
const ANY: Expectation = Object.fromEntries([...ALL, 'providerAdmin'].map((a) => [a, 'any'])) as Expectation;
const SIGNED_IN = only('member', 'userManager', 'organizationManager', 'siblingManager', 'ancestorManager', 'external', 'providerAdmin');
const NATIVE = only('member', 'userManager', 'organizationManager', 'siblingManager', 'ancestorManager', 'providerAdmin');
/** a userManager whose subtree holds the target (north) */
const USER_MANAGER_OF_TARGET = only('userManager', 'ancestorManager', 'providerAdmin');
/** an organizationManager whose subtree holds the target, below their own organization */
const ORG_MANAGER_OF_TARGET = only('organizationManager', 'ancestorManager', 'providerAdmin');
/** either manager role over the target */
const ANY_MANAGER_OF_TARGET = only('userManager', 'organizationManager', 'ancestorManager', 'providerAdmin');
/** either manager role, on their own subtree (no target given) */
const ANY_MANAGER = only('userManager', 'organizationManager', 'siblingManager', 'ancestorManager', 'providerAdmin');
/** the provider's administrators (organizationManager of the root organization) */
const PROVIDER_ADMIN = only('providerAdmin');

interface Ctx {
  world: World;
  params: Record<string, string>;
  /** extra values made with the params (e.g. the invitation code) */
  extra: Record<string, string>;
}

interface Entry {
  expect: Expectation;
  query?: (ctx: Ctx) => Record<string, string>;
  body?: (ctx: Ctx) => unknown;
}

const MATRIX: Record<string, Entry> = {
  // ---- identity (issue 3) ---------------------------------------------------------------------
  'GET /api/identity/context': { expect: PUBLIC },
  'GET /api/identity/challenge-external-login': { expect: ANY, query: () => ({ returnUrl: '/' }) },
  'GET /api/identity/login-external-callback': { expect: ANY },
  'POST /api/identity/email-login': { expect: PUBLIC, body: () => ({ email: uniqueEmail('nobody') }) },
  'POST /api/identity/login': { expect: PUBLIC, body: () => ({ email: uniqueEmail('nobody'), password: 'Wrong-passw0rd!' }) },
  'POST /api/identity/consent': { expect: ANY, body: () => ({ return_url: '/connect/auth/interaction/none', deny: true }) },
  'GET /api/identity/error': { expect: PUBLIC, query: () => ({ errorId: 'unknown' }) },
  'GET /api/identity/login-error': { expect: PUBLIC, query: () => ({ errorId: 'unknown' }) },
  'POST /api/identity/logout': { expect: ANY, body: () => ({}) },
  'GET /api/identity/user-info': { expect: SIGNED_IN },
  'POST /api/identity/change-password': {
    expect: NATIVE,
    // a wrong current password: 409 for those allowed, the session and password stay
    body: () => ({ current_password: 'Not-the-passw0rd!', new_password: 'N3w-Passw0rd!x', confirm_password: 'N3w-Passw0rd!x' }),
  },
  'PUT /api/identity/update-profile': { expect: SIGNED_IN, body: () => ({ first_name: 'Same', last_name: 'Tester', language_code: 'en' }) },
  'POST /api/identity/forgot-password': { expect: PUBLIC, body: () => ({ email_address: uniqueEmail('nobody') }) },
  'PUT /api/identity/reset-password': {
    expect: PUBLIC,
    body: (c) => ({
      user_id: c.world.users.member.id,
      token: 'not-a-valid-token',
      password: USER_PASSWORD,
      confirm_password: USER_PASSWORD,
    }),
  },
  'POST /api/identity/validate-reset-token': {
    expect: PUBLIC,
    body: (c) => ({ user_id: c.world.users.member.id, token: 'not-a-valid-token' }),
  },

  // ---- invitations (issue 4) --------------------------------------------------------------------
  'GET /api/invitations/{invitationId}': { expect: PUBLIC, query: (c) => ({ code: c.extra.code ?? '' }) },
  'PUT /api/invitations/{invitationId}/resend': { expect: USER_MANAGER_OF_TARGET },
  'PUT /api/invitations/{invitationId}/revoke': { expect: USER_MANAGER_OF_TARGET },
  'PUT /api/invitations/{invitationId}/accept': {
    // a wrong code: refused (400/404/409) for everybody, never 401/403 as the route is public
    expect: ANY,
    body: () => ({
      invitation_code: 'wrong',
      first_name: 'A',
      last_name: 'B',
      language_code: 'en',
      password: USER_PASSWORD,
      password_confirmation: USER_PASSWORD,
      accept_agreement: true,
    }),
  },

  // ---- members --------------------------------------------------------------------------------
  'GET /api/members/export': { expect: ANY_MANAGER, query: () => ({ output: 'csv' }) },
  'GET /api/members/rights/{memberId}': { expect: USER_MANAGER_OF_TARGET },
  'PUT /api/members/rights/{memberId}': { expect: USER_MANAGER_OF_TARGET, body: () => ({ rights: {} }) },
  'GET /api/members/search': { expect: ANY_MANAGER_OF_TARGET, query: (c) => ({ organizationId: c.world.north.id, q: 'e' }) },

  // ---- organizations --------------------------------------------------------------------------
  'GET /api/organizations/tree': { expect: ANY_MANAGER },
  'POST /api/organizations': {
    expect: ORG_MANAGER_OF_TARGET,
    body: (c) => ({ parent_organization_id: c.world.north.id, name: `Created ${Math.random().toString(36).slice(2, 10)}`, client_ids: [] }),
  },
  'GET /api/organizations/{organizationId}': { expect: ANY_MANAGER_OF_TARGET },
  'PATCH /api/organizations/{organizationId}': {
    expect: ORG_MANAGER_OF_TARGET,
    body: () => ({ name: `Renamed ${Math.random().toString(36).slice(2, 10)}` }),
  },
  'DELETE /api/organizations/{organizationId}': { expect: ORG_MANAGER_OF_TARGET },
  'PATCH /api/organizations/{organizationId}/apps': { expect: ORG_MANAGER_OF_TARGET, body: () => ({ client_ids: [] }) },
  'PATCH /api/organizations/{organizationId}/can-create-sub-organizations': {
    expect: ORG_MANAGER_OF_TARGET,
    query: () => ({ canCreateSubOrganizations: 'false' }),
  },
  'PUT /api/organizations/{organizationId}/allowed-email-domains': {
    expect: PROVIDER_ADMIN,
    body: () => ({ allowed_email_domains: ['example.com'] }),
  },
  'POST /api/organizations/{organizationId}/invitations': {
    expect: USER_MANAGER_OF_TARGET,
    body: () => ({ email_address: uniqueEmail('invited'), language_code: 'en' }),
  },
  'DELETE /api/organizations/{organizationId}/members/{memberId}': { expect: USER_MANAGER_OF_TARGET },

  // ---- portal ---------------------------------------------------------------------------------
  'GET /api/portal': { expect: SIGNED_IN },
  'GET /api/portal/notifications': { expect: SIGNED_IN },
  'GET /api/portal/application/features': { expect: SIGNED_IN },
  'GET /api/portal/profit-calculator': { expect: SIGNED_IN },
  'GET /api/portal/configuration': { expect: PUBLIC },

  // ---- second factors (docs/second-factors.md) ----------------------------------------------------
  'GET /api/factors': { expect: SIGNED_IN },
  'POST /api/factors/totp': { expect: NATIVE },
  'POST /api/factors/totp/confirm': { expect: NATIVE, body: () => ({ code: '000000' }) },
  'DELETE /api/factors/totp': { expect: SIGNED_IN },
  'POST /api/factors/recovery-codes': { expect: SIGNED_IN },
  'POST /api/factors/confirm-identity': { expect: SIGNED_IN, body: () => ({ password: 'Not-the-passw0rd!' }) },
  'POST /api/factors/passkeys/registration-options': { expect: NATIVE },
  'POST /api/factors/passkeys': { expect: NATIVE, body: () => ({ name: 'Key', response: {} }) },
  // someone else's (here: an unknown) passkey is 404 for everybody
  'PATCH /api/factors/passkeys/{passkeyId}': { expect: only(), body: () => ({ name: 'Key' }) },
  'DELETE /api/factors/passkeys/{passkeyId}': { expect: only() },
  'POST /api/identity/second-factor': { expect: PUBLIC, body: () => ({ code: '000000' }) },
  'POST /api/identity/passkey-options': { expect: PUBLIC },
  'POST /api/identity/passkey-login': { expect: PUBLIC, body: () => ({ response: {} }) },
  'DELETE /api/members/{memberId}/second-factors': { expect: USER_MANAGER_OF_TARGET },
  'GET /api/organizations/{organizationId}/second-factor-policy': { expect: ANY_MANAGER_OF_TARGET },
  'PUT /api/organizations/{organizationId}/second-factor-policy': { expect: ORG_MANAGER_OF_TARGET, body: () => ({ required: true }) },

  // ---- audit and developer --------------------------------------------------------------------
  'GET /api/audit': { expect: ANY_MANAGER_OF_TARGET, query: (c) => ({ organizationId: c.world.north.id }) },
  'GET /api/developer/organization-export': { expect: PROVIDER_ADMIN },
};

const portal = await startPortal({ LOGIN_RATE_LIMIT_PER_ACCOUNT: '100000', LOGIN_RATE_LIMIT_PER_IP: '100000' });
const world = await buildWorld(portal);
const routes = await apiRoutes(portal.app);
/** MATRIX_REPORT=1 prints the statuses seen, one row per route */
const seen = new Map<string, string[]>();
afterAll(async () => {
  if (process.env.MATRIX_REPORT) {
    console.log(`${'route'.padEnd(80)} ${[...ALL, 'providerAdmin'].map((a) => a.slice(0, 8).padStart(9)).join('')}`);
    for (const [key, statuses] of seen) console.log(`${key.padEnd(80)} ${statuses.map((x) => x.padStart(9)).join('')}`);
  }
  await portal.close();
});

/** Values for the route's path parameters: fixed ones for reads, fresh ones for changes. */
async function paramsFor(route: ApiRoute): Promise<{ params: Record<string, string>; extra: Record<string, string> }> {
  const reading = route.method === 'GET';
  const params: Record<string, string> = {};
  const extra: Record<string, string> = {};
  // the member of a member route lives in the organization of that route
  const organization =
    route.params.includes('organizationId') &&
    !reading &&
    !route.path.endsWith('/members/{memberId}') &&
    !route.path.endsWith('/invitations')
      ? await world.fresh.organization()
      : world.north;
  for (const name of route.params) {
    if (name === 'organizationId') params[name] = organization.id;
    else if (name === 'memberId') params[name] = (await world.fresh.member(organization)).membershipId;
    else if (name === 'invitationId') {
      const invitation = await world.fresh.invitation(organization);
      params[name] = invitation.id;
      extra.code = invitation.code;
    } else if (name === 'userId') params[name] = (await world.fresh.member(organization)).userId;
    else if (name === 'passkeyId') params[name] = randomUUID();
    else throw new Error(`the matrix has no value for path parameter {${name}} of ${route.key}: add one in paramsFor`);
  }
  return { params, extra };
}

function classify(status: number, route: ApiRoute): 'allow' | 'deny' | 'error' {
  if (status >= 500) return 'error';
  if (status === 401 || status === 403) return 'deny';
  if (status === 404 && route.params.length > 0) return 'deny';
  return 'allow';
}

describe('authorization matrix', () => {
  it('has an entry for every /api route of the running portal', () => {
    const missing = routes.filter((r) => !MATRIX[r.key]).map((r) => r.key);
    expect(missing, 'classify these routes in MATRIX (authorization-matrix.test.ts)').toEqual([]);
  });

  it('finds the routes (sanity)', () => {
    expect(routes.length).toBeGreaterThan(0);
  });

  for (const route of routes) {
    const entry = MATRIX[route.key];
    if (!entry) continue;
    it(`${route.key}`, async () => {
      const mismatches: string[] = [];
      const statuses: string[] = [];
      seen.set(route.key, statuses);
      for (const actor of [...ALL, 'providerAdmin'] as const) {
        const { params, extra } = await paramsFor(route);
        const ctx: Ctx = { world, params, extra };
        const client = actor === 'providerAdmin' ? await portal.sessionFor(portal.adminUserId) : await world.client(actor);
        const query = entry.query ? `?${new URLSearchParams(entry.query(ctx)).toString()}` : '';
        const body = entry.body?.(ctx);
        const res = await client.request(route.method, fillPath(route.path, params) + query, body === undefined ? {} : { body });
        const got = classify(res.status, route);
        statuses.push(String(res.status));
        const want = entry.expect[actor];
        const detail = `${actor}: expected ${want}, got ${res.status} ${typeof res.body === 'object' ? JSON.stringify(res.body).slice(0, 160) : ''}`;
        if (got === 'error') mismatches.push(detail);
        else if (want === 'any') continue;
        else if (want !== got) mismatches.push(detail);
        else if (want === 'deny' && actor === 'anonymous' && res.status !== 401) mismatches.push(`${detail} (anonymous must get 401)`);
      }
      expect(mismatches).toEqual([]);
    });
  }
});
