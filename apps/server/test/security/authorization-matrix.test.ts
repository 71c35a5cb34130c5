import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { personActor } from '../../src/http/actor.js';
import { startDnsServer } from '../support/dns-server.js';
import { NO_LOGIN_LIMITS, startPortal } from '../support/portal.js';
import { rootOrg } from '../organizations/fixtures.js';
import { apiRoutes, fillPath, type ApiRoute } from './support/routes.js';
import { ACTORS, buildWorld, uniqueEmail, USER_PASSWORD, type ActorName, type OrgRow, type World } from './support/world.js';

/**
 * The authorization matrix: every /api route of the running portal, read from its
 * router, against every actor. A route without an entry in MATRIX fails, so that each new
 * endpoint has to be classified here. Expected:
 *   allow → a 2xx answer; for a request refused on its merits (`refused`: a wrong password or
 *           code, an unknown id), anything but 401/403; never a 5xx;
 *   deny  → exactly 401 for anonymous and 403 for the others (404 only where the route hides
 *           the resource, `hides`);
 *   people → for the service account: 403 service_account_not_allowed, the route is a person's.
 * Both unexpected allows and unexpected denials fail.
 *
 * Actors (support/world.ts): the organization tree root → partner → dealer-a → north, and
 * partner → dealer-b. Routes that take an organization or a member or an invitation get one in
 * north, below the organization of the managers (a fresh one for every request that changes or
 * removes it); rows with `target: 'own'` repeat the route on dealer-a, the managers' own organization.
 * The service account of dealer-a holds both manager rights: on the administrative calls it acts
 * as a userManager and organizationManager of dealer-a would; every other call, and those that
 * change how people sign in or make credentials (connections, domains, the second-factor policy,
 * SCIM tokens, service accounts), are people's (docs/integrations.md, "Service accounts").
 */
type Outcome = 'allow' | 'deny' | 'any' | 'people';
type Expectation = Record<ActorName | 'providerAdmin', Outcome>;

const ALL: ActorName[] = [...ACTORS];
function only(...allowed: (ActorName | 'providerAdmin')[]): Expectation {
  const e = { providerAdmin: allowed.includes('providerAdmin') ? 'allow' : 'deny' } as Expectation;
  for (const a of ALL) e[a] = allowed.includes(a) ? 'allow' : 'deny';
  return e;
}
/** the same, for people only: the service account gets 403 service_account_not_allowed */
const forPeople = (e: Expectation): Expectation => ({ ...e, serviceAccount: 'people' });
const PUBLIC = forPeople(only(...ALL, 'providerAdmin'));
/** callable by anyone; the status depends on the state of the flow (e.g. logout without a session) */
const ANY: Expectation = Object.fromEntries([...ALL, 'providerAdmin'].map((a) => [a, 'any'])) as Expectation;
const SIGNED_IN = forPeople(
  only('member', 'userManager', 'organizationManager', 'siblingManager', 'ancestorManager', 'external', 'providerAdmin'),
);
const NATIVE = forPeople(only('member', 'userManager', 'organizationManager', 'siblingManager', 'ancestorManager', 'providerAdmin'));
/** a userManager whose subtree holds the target (north) */
const USER_MANAGER_OF_TARGET = only('userManager', 'ancestorManager', 'providerAdmin', 'serviceAccount');
/** an organizationManager whose subtree holds the target, below their own organization */
const ORG_MANAGER_OF_TARGET = only('organizationManager', 'ancestorManager', 'providerAdmin', 'serviceAccount');
/** either manager role over the target */
const ANY_MANAGER_OF_TARGET = only('userManager', 'organizationManager', 'ancestorManager', 'providerAdmin', 'serviceAccount');
/** either manager role, on their own subtree (no target given) */
const ANY_MANAGER = only('userManager', 'organizationManager', 'siblingManager', 'ancestorManager', 'providerAdmin', 'serviceAccount');
/** the provider's administrators (organizationManager of the root organization) */
const PROVIDER_ADMIN = only('providerAdmin');
/**
 * The same managers, people only (the contract's "Only people change how people sign in", and
 * credentials that would outlive a service account): connections, domains, the second-factor
 * policy, SCIM tokens, service accounts.
 */
const PEOPLE_USER_MANAGER_OF_TARGET = forPeople(USER_MANAGER_OF_TARGET);
const PEOPLE_ORG_MANAGER_OF_TARGET = forPeople(ORG_MANAGER_OF_TARGET);
const PEOPLE_ANY_MANAGER_OF_TARGET = forPeople(ANY_MANAGER_OF_TARGET);

interface Ctx {
  world: World;
  /** the organization the row acts on: north, or dealer-a for `target: 'own'` */
  target: OrgRow;
  params: Record<string, string>;
  /** extra values made with the params (e.g. the invitation code) */
  extra: Record<string, string>;
}

interface Entry {
  expect: Expectation;
  /** what a second row of the same route checks (shown in the test's name) */
  case?: string;
  /** act on dealer-a, the own organization of member, userManager, organizationManager and external, instead of north */
  target?: 'own';
  /** the request is refused on its merits for those allowed: allowed means anything but 401/403 instead of a 2xx */
  refused?: true;
  /** the route answers 404 to those denied, so as not to tell whether the resource exists */
  hides?: true;
  /** the invitation of the route is sent through the API, its code read from the e-mail (world.fresh.mailedInvitation) */
  mailed?: true;
  query?: (ctx: Ctx) => Record<string, string>;
  body?: (ctx: Ctx) => unknown;
}

const acceptance = (code: string) => ({
  invitation_code: code,
  first_name: 'A',
  last_name: 'B',
  language_code: 'en',
  password: USER_PASSWORD,
  password_confirmation: USER_PASSWORD,
  accept_agreement: true,
});
const OWN = { case: 'own organization', target: 'own' } as const;

const MATRIX: Record<string, Entry | Entry[]> = {
  // ---- identity ---------------------------------------------------------------------
  'GET /api/identity/context': { expect: PUBLIC },
  'GET /api/identity/challenge-external-login': { expect: ANY, query: () => ({ returnUrl: '/' }) },
  'GET /api/identity/login-external-callback': { expect: ANY },
  'POST /api/identity/email-login': { expect: PUBLIC, body: () => ({ email: uniqueEmail('nobody') }) },
  'POST /api/identity/login': {
    expect: PUBLIC,
    refused: true,
    body: () => ({ email: uniqueEmail('nobody'), password: 'Wrong-passw0rd!' }),
  },
  'POST /api/identity/consent': { expect: ANY, body: () => ({ return_url: '/connect/auth/interaction/none', deny: true }) },
  'GET /api/identity/error': { expect: PUBLIC, refused: true, query: () => ({ errorId: 'unknown' }) },
  'GET /api/identity/login-error': { expect: PUBLIC, refused: true, query: () => ({ errorId: 'unknown' }) },
  'POST /api/identity/logout': { expect: ANY, body: () => ({}) },
  'GET /api/identity/user-info': { expect: SIGNED_IN },
  'POST /api/identity/change-password': {
    expect: NATIVE,
    // a wrong current password: 409 for those allowed, the session and password stay
    refused: true,
    body: () => ({ current_password: 'Not-the-passw0rd!', new_password: 'N3w-Passw0rd!x', confirm_password: 'N3w-Passw0rd!x' }),
  },
  'PUT /api/identity/update-profile': { expect: SIGNED_IN, body: () => ({ first_name: 'Same', last_name: 'Tester', language_code: 'en' }) },
  'GET /api/identity/sessions': { expect: SIGNED_IN },
  // someone else's or an unknown session id: nothing ends, 204 for every signed-in user
  'DELETE /api/identity/sessions/{sessionId}': { expect: SIGNED_IN },
  'POST /api/identity/sessions/end-others': { expect: SIGNED_IN },
  // device sign-in's page (oidc/device.ts): an unknown user code, 400 device_code_unknown for every signed-in person
  'POST /api/device/lookup': { expect: SIGNED_IN, refused: true, body: () => ({ user_code: 'BBBB-BBBB' }) },
  'POST /api/device/decision': { expect: SIGNED_IN, refused: true, body: () => ({ user_code: 'BBBB-BBBB', decision: 'deny' }) },
  'POST /api/identity/forgot-password': { expect: PUBLIC, body: () => ({ email_address: uniqueEmail('nobody') }) },
  'PUT /api/identity/reset-password': {
    expect: PUBLIC,
    refused: true,
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

  // ---- invitations --------------------------------------------------------------------
  'GET /api/invitations/{invitationId}': { expect: PUBLIC, mailed: true, query: (c) => ({ code: c.extra.code ?? '' }) },
  'PUT /api/invitations/{invitationId}/resend': [{ expect: USER_MANAGER_OF_TARGET }, { ...OWN, expect: USER_MANAGER_OF_TARGET }],
  'PUT /api/invitations/{invitationId}/revoke': [{ expect: USER_MANAGER_OF_TARGET }, { ...OWN, expect: USER_MANAGER_OF_TARGET }],
  'PUT /api/invitations/{invitationId}/accept': [
    // a fresh invitation with the code of its e-mail: accepted by anybody who holds the code
    { expect: PUBLIC, mailed: true, body: (c) => acceptance(c.extra.code ?? '') },
    // a wrong code: refused (400/404/409) for everybody, never 401/403 as the route is public
    { case: 'wrong code', expect: ANY, body: () => acceptance('wrong') },
  ],

  // ---- members --------------------------------------------------------------------------------
  'GET /api/members/export': [
    { case: 'own subtree', expect: ANY_MANAGER, query: () => ({ output: 'csv' }) },
    { case: 'north', expect: ANY_MANAGER_OF_TARGET, query: (c) => ({ output: 'xlsx', organizationId: c.target.id }) },
    { ...OWN, expect: ANY_MANAGER_OF_TARGET, query: (c) => ({ output: 'xlsx', organizationId: c.target.id }) },
  ],
  'GET /api/members/rights/{memberId}': [{ expect: USER_MANAGER_OF_TARGET }, { ...OWN, expect: USER_MANAGER_OF_TARGET }],
  'PUT /api/members/rights/{memberId}': [
    { expect: USER_MANAGER_OF_TARGET, body: () => ({ rights: { partner_portal: { user_user_manager: true } } }) },
    { ...OWN, expect: USER_MANAGER_OF_TARGET, body: () => ({ rights: { partner_portal: { user_user_manager: true } } }) },
  ],
  'POST /api/members/bulk-remove': { expect: USER_MANAGER_OF_TARGET, body: (c) => ({ member_ids: [c.extra.memberId] }) },
  'POST /api/members/{memberId}/sign-out': { expect: USER_MANAGER_OF_TARGET },
  'GET /api/members/search': [
    { expect: ANY_MANAGER_OF_TARGET, query: (c) => ({ organizationId: c.target.id, q: 'e' }) },
    { ...OWN, expect: ANY_MANAGER_OF_TARGET, query: (c) => ({ organizationId: c.target.id, q: 'e' }) },
  ],

  // ---- organizations --------------------------------------------------------------------------
  'GET /api/organizations/tree': { expect: ANY_MANAGER },
  'POST /api/organizations': [
    {
      expect: ORG_MANAGER_OF_TARGET,
      body: (c) => ({ parent_organization_id: c.target.id, name: `Created ${randomUUID()}`, client_ids: [] }),
    },
    { ...OWN, expect: ORG_MANAGER_OF_TARGET, body: (c) => ({ parent_organization_id: c.target.id, name: `Created ${randomUUID()}` }) },
  ],
  'GET /api/organizations/{organizationId}': [{ expect: ANY_MANAGER_OF_TARGET }, { ...OWN, expect: ANY_MANAGER_OF_TARGET }],
  'PATCH /api/organizations/{organizationId}': { expect: ORG_MANAGER_OF_TARGET, body: () => ({ name: `Renamed ${randomUUID()}` }) },
  'DELETE /api/organizations/{organizationId}': { expect: ORG_MANAGER_OF_TARGET },
  'PATCH /api/organizations/{organizationId}/apps': { expect: ORG_MANAGER_OF_TARGET, body: () => ({ client_ids: ['media-library'] }) },
  'PATCH /api/organizations/{organizationId}/can-create-sub-organizations': {
    expect: ORG_MANAGER_OF_TARGET,
    query: () => ({ canCreateSubOrganizations: 'false' }),
  },
  'PUT /api/organizations/{organizationId}/allowed-email-domains': {
    expect: PROVIDER_ADMIN,
    body: () => ({ allowed_email_domains: ['example.com'] }),
  },
  'POST /api/organizations/{organizationId}/invitations': [
    { expect: USER_MANAGER_OF_TARGET, body: () => ({ email_address: uniqueEmail('invited'), language_code: 'en' }) },
    { ...OWN, expect: USER_MANAGER_OF_TARGET, body: () => ({ email_address: uniqueEmail('invited'), language_code: 'en' }) },
  ],
  'POST /api/organizations/{organizationId}/invitations/bulk/dry-run': {
    expect: USER_MANAGER_OF_TARGET,
    body: () => ({ csv: `email,first_name,last_name,language\n${uniqueEmail('bulk')},A,B,en\n` }),
  },
  'POST /api/organizations/{organizationId}/invitations/bulk': {
    expect: USER_MANAGER_OF_TARGET,
    body: () => ({ csv: `email,first_name,last_name,language\n${uniqueEmail('bulk')},A,B,en\n` }),
  },
  'GET /api/invitations/batches/{batchId}/report': { expect: USER_MANAGER_OF_TARGET },
  'DELETE /api/organizations/{organizationId}/members/{memberId}': [
    { expect: USER_MANAGER_OF_TARGET },
    { ...OWN, expect: USER_MANAGER_OF_TARGET },
  ],

  // ---- portal ---------------------------------------------------------------------------------
  'GET /api/portal': { expect: SIGNED_IN },
  'GET /api/portal/notifications': { expect: SIGNED_IN },
  'GET /api/portal/application/features': { expect: SIGNED_IN },
  'GET /api/portal/profit-calculator': { expect: SIGNED_IN },
  'GET /api/portal/configuration': { expect: PUBLIC },

  // ---- second factors (docs/second-factors.md) ----------------------------------------------------
  'GET /api/factors': { expect: SIGNED_IN },
  'POST /api/factors/totp': { expect: NATIVE },
  'POST /api/factors/totp/confirm': { expect: NATIVE, refused: true, body: () => ({ code: '000000' }) },
  // no authenticator app enrolled: 404 for every signed-in user
  'DELETE /api/factors/totp': { expect: SIGNED_IN, refused: true },
  'POST /api/factors/recovery-codes': { expect: SIGNED_IN, refused: true },
  'POST /api/factors/confirm-identity': { expect: SIGNED_IN, refused: true, body: () => ({ password: 'Not-the-passw0rd!' }) },
  'POST /api/factors/passkeys/registration-options': { expect: NATIVE },
  'POST /api/factors/passkeys': { expect: NATIVE, refused: true, body: () => ({ name: 'Key', response: {} }) },
  // someone else's (here: an unknown) passkey is 404 for everybody
  'PATCH /api/factors/passkeys/{passkeyId}': { expect: only(), hides: true, body: () => ({ name: 'Key' }) },
  'DELETE /api/factors/passkeys/{passkeyId}': { expect: only(), hides: true },
  'POST /api/identity/second-factor': { expect: PUBLIC, refused: true, body: () => ({ code: '000000' }) },
  'POST /api/identity/passkey-options': { expect: PUBLIC },
  'POST /api/identity/passkey-login': { expect: PUBLIC, refused: true, body: () => ({ response: {} }) },
  'DELETE /api/members/{memberId}/second-factors': { expect: PEOPLE_USER_MANAGER_OF_TARGET },
  'GET /api/organizations/{organizationId}/second-factor-policy': { expect: PEOPLE_ANY_MANAGER_OF_TARGET },
  'PUT /api/organizations/{organizationId}/second-factor-policy': {
    expect: PEOPLE_ORG_MANAGER_OF_TARGET,
    body: () => ({ required: true }),
  },

  // ---- audit and developer --------------------------------------------------------------------
  'GET /api/audit': [
    { expect: ANY_MANAGER_OF_TARGET, query: (c) => ({ organizationId: c.target.id }) },
    { ...OWN, expect: ANY_MANAGER_OF_TARGET, query: (c) => ({ organizationId: c.target.id }) },
  ],
  'GET /api/audit/export': { expect: ANY_MANAGER_OF_TARGET, query: (c) => ({ organizationId: c.target.id }) },
  'GET /api/developer/organization-export': { expect: PROVIDER_ADMIN },

  // access requests
  'POST /api/access-requests': {
    expect: PUBLIC,
    body: () => ({ email_address: uniqueEmail('asking'), first_name: 'A', last_name: 'B', language_code: 'en' }),
  },
  'GET /api/organizations/{organizationId}/access-requests': [
    { expect: USER_MANAGER_OF_TARGET },
    { ...OWN, expect: USER_MANAGER_OF_TARGET },
  ],
  'PUT /api/access-requests/{id}/approve': [
    { expect: USER_MANAGER_OF_TARGET, body: () => ({}) },
    { ...OWN, expect: USER_MANAGER_OF_TARGET, body: () => ({}) },
  ],
  'PUT /api/access-requests/{id}/decline': [{ expect: USER_MANAGER_OF_TARGET }, { ...OWN, expect: USER_MANAGER_OF_TARGET }],
  // verified domains
  'GET /api/organizations/{organizationId}/domains': [
    { expect: PEOPLE_ANY_MANAGER_OF_TARGET },
    { ...OWN, expect: PEOPLE_ANY_MANAGER_OF_TARGET },
  ],
  'POST /api/organizations/{organizationId}/domains': [
    { expect: PEOPLE_ORG_MANAGER_OF_TARGET, body: () => ({ domain: `${randomUUID()}.matrix.example` }) },
    { ...OWN, expect: PEOPLE_ORG_MANAGER_OF_TARGET, body: () => ({ domain: `${randomUUID()}.matrix.example` }) },
  ],
  // a fresh claim whose record the matrix's DNS server publishes: verified (200) for those allowed
  'POST /api/organizations/{organizationId}/domains/{domain}/verify': { expect: PEOPLE_ORG_MANAGER_OF_TARGET },
  'DELETE /api/organizations/{organizationId}/domains/{domain}': { expect: PEOPLE_ORG_MANAGER_OF_TARGET },
  // service accounts (docs/integrations.md): people who manage the organization's subtree, giving (at least one) right they hold
  'GET /api/organizations/{organizationId}/service-accounts': [
    { expect: PEOPLE_ANY_MANAGER_OF_TARGET },
    { ...OWN, expect: PEOPLE_ANY_MANAGER_OF_TARGET },
  ],
  'POST /api/organizations/{organizationId}/service-accounts': [
    // a right only userManagers hold: organizationManagers are refused (cannot_grant_rights_not_held)
    { expect: PEOPLE_USER_MANAGER_OF_TARGET, body: () => ({ name: `Matrix ${randomUUID()}`, user_manager: true }) },
    { ...OWN, expect: PEOPLE_USER_MANAGER_OF_TARGET, body: () => ({ name: `Matrix ${randomUUID()}`, user_manager: true }) },
    // and the other way round
    {
      case: 'with organization_manager',
      expect: PEOPLE_ORG_MANAGER_OF_TARGET,
      body: () => ({ name: `Matrix ${randomUUID()}`, organization_manager: true }),
    },
  ],
  'DELETE /api/organizations/{organizationId}/service-accounts/{serviceAccountId}': { expect: PEOPLE_ANY_MANAGER_OF_TARGET },
  // SCIM (docs/integrations.md, "SCIM 2.0"): the tokens of directories; /scim/v2 itself is no /api route
  'POST /api/organizations/{organizationId}/scim-tokens': [
    { expect: PEOPLE_USER_MANAGER_OF_TARGET, body: () => ({ name: 'Directory' }) },
    { ...OWN, expect: PEOPLE_USER_MANAGER_OF_TARGET, body: () => ({ name: 'Directory' }) },
  ],
  'GET /api/organizations/{organizationId}/scim-tokens': [
    { expect: PEOPLE_USER_MANAGER_OF_TARGET },
    { ...OWN, expect: PEOPLE_USER_MANAGER_OF_TARGET },
  ],
  'DELETE /api/organizations/{organizationId}/scim-tokens/{tokenId}': { expect: PEOPLE_USER_MANAGER_OF_TARGET },
  // single sign-on
  'POST /api/organizations/{organizationId}/sso-connections': {
    expect: PEOPLE_ORG_MANAGER_OF_TARGET,
    // the domain is not verified: 409 domain_not_verified for those allowed, after the right is checked
    refused: true,
    body: () => ({ name: 'Matrix', issuer: 'https://sso.invalid', client_id: 'portal', domains: ['matrix.example'] }),
  },
  'GET /api/organizations/{organizationId}/sso-connections': [
    { expect: PEOPLE_ANY_MANAGER_OF_TARGET },
    { ...OWN, expect: PEOPLE_ANY_MANAGER_OF_TARGET },
  ],
  'PATCH /api/organizations/{organizationId}/sso-connections/{connectionId}': {
    expect: PEOPLE_ORG_MANAGER_OF_TARGET,
    body: () => ({ name: `Renamed ${randomUUID()}` }),
  },
  'GET /api/organizations/{organizationId}/sso-connections/{connectionId}/members': { expect: PEOPLE_ORG_MANAGER_OF_TARGET },
  'DELETE /api/organizations/{organizationId}/sso-connections/{connectionId}': { expect: PEOPLE_ORG_MANAGER_OF_TARGET },
  // the connection policy and setup links (modules/connection-policy, modules/setup-links): people only
  'GET /api/organizations/{organizationId}/connection-policy': [
    { expect: PEOPLE_ANY_MANAGER_OF_TARGET },
    { ...OWN, expect: PEOPLE_ANY_MANAGER_OF_TARGET },
  ],
  'PUT /api/organizations/{organizationId}/connection-policy': [
    { expect: PEOPLE_ORG_MANAGER_OF_TARGET, body: () => ({ sub_organizations_may_connect: true }) },
    { ...OWN, expect: PEOPLE_ORG_MANAGER_OF_TARGET, body: () => ({ sub_organizations_may_connect: true }) },
  ],
  'POST /api/organizations/{organizationId}/setup-links': [
    {
      expect: PEOPLE_ORG_MANAGER_OF_TARGET,
      body: () => ({ email: uniqueEmail('it'), capabilities: ['domains', 'sso'], expires_in_days: 1 }),
    },
    {
      case: 'scim',
      expect: PEOPLE_USER_MANAGER_OF_TARGET,
      body: () => ({ email: uniqueEmail('it'), capabilities: ['scim'], expires_in_days: 1 }),
    },
  ],
  'GET /api/organizations/{organizationId}/setup-links': [
    { expect: PEOPLE_ANY_MANAGER_OF_TARGET },
    { ...OWN, expect: PEOPLE_ANY_MANAGER_OF_TARGET },
  ],
  'DELETE /api/organizations/{organizationId}/setup-links/{linkId}': { expect: PEOPLE_ANY_MANAGER_OF_TARGET },
  // the setup page's calls, for whoever holds a link: an unknown link is 404 unknown_setup_link for everybody
  'GET /api/setup/{token}': { expect: ANY },
  'POST /api/setup/{token}/code': { expect: ANY },
  'POST /api/setup/{token}/session': { expect: ANY, body: () => ({ code: '12345678' }) },
  // support access and support sessions (modules/support): consent is off in this world, so no
  // support session is made (403 support_access_not_allowed to the userManagers of the member);
  // start and end of an unknown support session (or of someone else's): 404 for every signed-in person
  'GET /api/organizations/{organizationId}/support-access': [{ expect: ANY_MANAGER_OF_TARGET }, { ...OWN, expect: ANY_MANAGER_OF_TARGET }],
  'PUT /api/organizations/{organizationId}/support-access': [
    { expect: PEOPLE_ORG_MANAGER_OF_TARGET, body: () => ({ allowed: false }) },
    { ...OWN, expect: PEOPLE_ORG_MANAGER_OF_TARGET, body: () => ({ allowed: false }) },
  ],
  'POST /api/members/{memberId}/support-sessions': {
    expect: forPeople(only()),
    body: () => ({ reason: 'Matrix support reason', minutes: 5 }),
  },
  'GET /api/me/support-sessions': { expect: SIGNED_IN },
  'GET /api/support-sessions/{supportSessionId}/start': { expect: only(), hides: true },
  'DELETE /api/support-sessions/{supportSessionId}': { expect: only(), hides: true },
  // webhooks
  'GET /api/organizations/{organizationId}/webhooks': [{ expect: ORG_MANAGER_OF_TARGET }, { ...OWN, expect: ORG_MANAGER_OF_TARGET }],
  'POST /api/organizations/{organizationId}/webhooks': [
    { expect: ORG_MANAGER_OF_TARGET, body: () => ({ url: 'https://hooks.example.com/matrix', events: ['*'] }) },
    { ...OWN, expect: ORG_MANAGER_OF_TARGET, body: () => ({ url: 'https://hooks.example.com/matrix', events: ['member.created'] }) },
  ],
  'PATCH /api/organizations/{organizationId}/webhooks/{webhookId}': [
    { expect: ORG_MANAGER_OF_TARGET, body: () => ({ events: ['member.created'] }) },
    { ...OWN, expect: ORG_MANAGER_OF_TARGET, body: () => ({ description: 'Own' }) },
  ],
  'DELETE /api/organizations/{organizationId}/webhooks/{webhookId}': [
    { expect: ORG_MANAGER_OF_TARGET },
    { ...OWN, expect: ORG_MANAGER_OF_TARGET },
  ],
  'GET /api/organizations/{organizationId}/webhooks/{webhookId}/deliveries': { expect: ORG_MANAGER_OF_TARGET },
  'POST /api/organizations/{organizationId}/webhooks/{webhookId}/deliveries/{deliveryId}/retry': {
    expect: ORG_MANAGER_OF_TARGET,
  },
  // audit streams (people only)
  'GET /api/organizations/{organizationId}/audit-streams': [
    { expect: PEOPLE_ORG_MANAGER_OF_TARGET },
    { ...OWN, expect: PEOPLE_ORG_MANAGER_OF_TARGET },
  ],
  'POST /api/organizations/{organizationId}/audit-streams': {
    expect: PEOPLE_ORG_MANAGER_OF_TARGET,
    body: () => ({ kind: 'https', url: 'https://logs.example.com/matrix' }),
  },
  'PATCH /api/organizations/{organizationId}/audit-streams/{streamId}': {
    expect: PEOPLE_ORG_MANAGER_OF_TARGET,
    body: () => ({ description: 'Matrix' }),
  },
  'DELETE /api/organizations/{organizationId}/audit-streams/{streamId}': { expect: PEOPLE_ORG_MANAGER_OF_TARGET },
  'POST /api/organizations/{organizationId}/audit-streams/{streamId}/replay': {
    expect: PEOPLE_ORG_MANAGER_OF_TARGET,
    body: () => ({ from: '2020-01-01T00:00:00Z' }),
  },
};

// the DNS server of verified domains: the records of the claims made for {domain} (paramsFor)
const dns = await startDnsServer();
// the service account's requests (one a row) stay below its general limit
const portal = await startPortal({ ...NO_LOGIN_LIMITS, RATE_LIMIT_SERVICE_ACCOUNT_MAX: '100000', DNS_SERVERS: dns.address });
const world = await buildWorld(portal);
const routes = await apiRoutes(portal.app);
/** MATRIX_REPORT=1 prints the statuses seen, one row per route (and case) */
const seen = new Map<string, string[]>();
afterAll(async () => {
  if (process.env.MATRIX_REPORT) {
    console.log(`${'route'.padEnd(96)} ${[...ALL, 'providerAdmin'].map((a) => a.slice(0, 8).padStart(9)).join('')}`);
    for (const [key, statuses] of seen) console.log(`${key.padEnd(96)} ${statuses.map((x) => x.padStart(9)).join('')}`);
  }
  await portal.close();
  await dns.stop();
});

/** A pending access request routed to the organization (stored in SQL, as the routing of POST /api/access-requests would). */
async function pendingAccessRequest(organization: OrgRow): Promise<string> {
  const { rows } = await portal.services.db.query<{ id: string }>(
    `INSERT INTO access_requests (email, first_name, last_name, organization_id) VALUES ($1, 'A', 'B', $2) RETURNING id`,
    [uniqueEmail('requested'), organization.id],
  );
  return rows[0]!.id;
}

/** Values for the route's path parameters: fixed ones for reads, fresh ones for changes. */
async function paramsFor(
  route: ApiRoute,
  entry: Entry,
  target: OrgRow,
): Promise<{ params: Record<string, string>; extra: Record<string, string> }> {
  const reading = route.method === 'GET';
  const params: Record<string, string> = {};
  const extra: Record<string, string> = {};
  // the member of a member route lives in the organization of that route
  const organization =
    route.params.includes('organizationId') &&
    !reading &&
    !route.path.endsWith('/members/{memberId}') &&
    !route.path.endsWith('/invitations') &&
    !route.path.includes('/webhooks')
      ? await world.fresh.organization(target)
      : target;
  for (const name of route.params) {
    if (name === 'organizationId') params[name] = organization.id;
    else if (name === 'memberId') params[name] = (await world.fresh.member(organization)).membershipId;
    else if (name === 'invitationId') {
      const invitation = entry.mailed ? await world.fresh.mailedInvitation(organization) : await world.fresh.invitation(organization);
      params[name] = invitation.id;
      extra.code = invitation.code;
    } else if (name === 'userId') params[name] = (await world.fresh.member(organization)).userId;
    else if (name === 'sessionId') params[name] = 'not-a-session-of-this-user';
    else if (name === 'batchId') {
      const { rows } = await portal.services.db.query<{ id: string }>(
        `INSERT INTO invitation_batches (organization_id, sent, refused, rows) VALUES ($1, 0, 0, '[]') RETURNING id`,
        [organization.id],
      );
      params[name] = rows[0]!.id;
    } else if (name === 'passkeyId') params[name] = randomUUID();
    else if (name === 'supportSessionId') params[name] = randomUUID();
    else if (name === 'id' && route.path.startsWith('/api/access-requests/')) params[name] = await pendingAccessRequest(organization);
    else if (name === 'domain') {
      // a domain the organization claimed, its record published
      const domain = `${randomUUID()}.matrix.example`;
      const value = `partner-portal-verification=${randomBytes(32).toString('base64url')}`;
      await portal.services.db.query('INSERT INTO organization_domains (organization_id, domain, verification_value) VALUES ($1, $2, $3)', [
        organization.id,
        domain,
        value,
      ]);
      dns.set(`_partner-portal.${domain}`, value);
      params[name] = domain;
    } else if (name === 'serviceAccountId') {
      // an account without rights, in the route's organization (migration 0070)
      const id = randomUUID();
      await portal.services.db.query(
        `INSERT INTO service_accounts (id, organization_id, name, client_id, secret_hash) VALUES ($1::uuid, $2, 'Matrix account', 'sa.' || $1::text, 'x')`,
        [id, organization.id],
      );
      params[name] = id;
    } else if (name === 'tokenId') {
      const { rows } = await portal.services.db.query<{ id: string }>(
        `INSERT INTO scim_tokens (organization_id, name, token_hash, rights) VALUES ($1, 'Matrix', $2, '{}') RETURNING id`,
        [organization.id, randomUUID()],
      );
      params[name] = rows[0]!.id;
    } else if (name === 'connectionId') {
      // a single sign-on connection of the route's organization (its issuer is not called to rename or delete it)
      const { rows } = await portal.services.db.query<{ id: string }>(
        `INSERT INTO sso_connections (organization_id, name, issuer, client_id, domains) VALUES ($1, 'Matrix', 'https://sso.invalid', 'portal', $2)
         RETURNING id`,
        [organization.id, [`${randomUUID()}.example`]],
      );
      params[name] = rows[0]!.id;
    } else if (name === 'linkId') {
      const { rows } = await portal.services.db.query<{ id: string }>(
        `INSERT INTO setup_links (organization_id, email, language_code, capabilities, token_hash, expires_at)
         VALUES ($1, 'it@matrix.example', 'en', '{domains}', $2, now() + interval '1 day') RETURNING id`,
        [organization.id, randomUUID()],
      );
      params[name] = rows[0]!.id;
    } else if (name === 'token') params[name] = 'not-a-setup-link-token';
    else if (name === 'webhookId') {
      const { rows } = await portal.services.db.query<{ id: string }>(
        `INSERT INTO webhooks (organization_id, url, events, secret_sealed) VALUES ($1, 'https://hooks.example.com/matrix', '{*}', 'sealed') RETURNING id`,
        [organization.id],
      );
      params[name] = rows[0]!.id;
    } else if (name === 'deliveryId') {
      const { rows } = await portal.services.db.query<{ id: string }>(
        `INSERT INTO outbox (kind, webhook_id, payload, state)
         VALUES ('webhook', $1, jsonb_build_object('event_type', 'member.created', 'organization_id', $2::uuid, 'body', '{}'), 'failed') RETURNING id`,
        [params.webhookId, organization.id],
      );
      params[name] = rows[0]!.id;
    } else if (name === 'streamId') {
      const { rows } = await portal.services.db.query<{ id: string }>(
        `INSERT INTO audit_streams (organization_id, kind, url) VALUES ($1, 'https', 'https://logs.example.com/matrix') RETURNING id`,
        [organization.id],
      );
      params[name] = rows[0]!.id;
    } else throw new Error(`the matrix has no value for path parameter {${name}} of ${route.key}: add one in paramsFor`);
  }
  // a body that names a member (bulk removal): a fresh one in the target
  if (route.key === 'POST /api/members/bulk-remove') extra.memberId = (await world.fresh.member(target)).membershipId;
  return { params, extra };
}

/** Why the answer does not match what the actor should get, or null when it does. */
function mismatch(
  status: number,
  key: string | undefined,
  want: Outcome,
  actor: ActorName | 'providerAdmin',
  route: ApiRoute,
  entry: Entry,
): string | null {
  if (status >= 500) return 'a server error';
  if (want === 'any') return null;
  if (want === 'people') return status === 403 && key === 'service_account_not_allowed' ? null : 'must get 403 service_account_not_allowed';
  const deniedStatus = status === 401 || status === 403;
  if (want === 'deny') {
    if (actor === 'anonymous') return status === 401 ? null : 'anonymous must get 401';
    return status === 403 || (entry.hides && status === 404) ? null : `must get 403${entry.hides ? ' or 404' : ''}`;
  }
  if (entry.refused) return deniedStatus || (status === 404 && route.params.length > 0) ? 'denied' : null;
  return status >= 200 && status < 300 ? null : 'must get a 2xx';
}

const entriesOf = (key: string): Entry[] => [MATRIX[key] ?? []].flat();

describe('authorization matrix', () => {
  it('has an entry for every /api route of the running portal', () => {
    const missing = routes.filter((r) => !MATRIX[r.key]).map((r) => r.key);
    expect(missing, 'classify these routes in MATRIX (authorization-matrix.test.ts)').toEqual([]);
  });

  it('finds the routes (sanity)', () => {
    expect(routes.length).toBeGreaterThan(0);
  });

  for (const route of routes) {
    for (const entry of entriesOf(route.key)) {
      const name = entry.case ? `${route.key} (${entry.case})` : route.key;
      it(name, async () => {
        const target = entry.target === 'own' ? world.dealerA : world.north;
        const mismatches: string[] = [];
        const statuses: string[] = [];
        seen.set(name, statuses);
        for (const actor of [...ALL, 'providerAdmin'] as const) {
          const { params, extra } = await paramsFor(route, entry, target);
          const ctx: Ctx = { world, target, params, extra };
          const client = actor === 'providerAdmin' ? await portal.sessionFor(portal.adminUserId) : await world.client(actor);
          const query = entry.query ? `?${new URLSearchParams(entry.query(ctx)).toString()}` : '';
          const body = entry.body?.(ctx);
          const res = await client.request(route.method, fillPath(route.path, params) + query, body === undefined ? {} : { body });
          statuses.push(String(res.status));
          const want = entry.expect[actor];
          const key = (res.body as { i18NTranslationKey?: string } | undefined)?.i18NTranslationKey;
          const why = mismatch(res.status, key, want, actor, route, entry);
          if (why) {
            const answer = typeof res.body === 'object' ? JSON.stringify(res.body).slice(0, 160) : '';
            mismatches.push(`${actor}: expected ${want}, got ${res.status} (${why}) ${answer}`);
          }
        }
        expect(mismatches).toEqual([]);
      });
    }
  }
});

/**
 * Delegated administration (docs/security.md, "Delegated administration"): the rows of the matrix
 * that depend on the rights of the actor and of the target, not only on their organizations.
 */
describe('authorization matrix: delegation', () => {
  const db = portal.services.db;
  const rightsOf = async (membershipId: string) =>
    (await db.query<{ rights: Record<string, unknown> }>('SELECT rights FROM memberships WHERE id = $1', [membershipId])).rows[0]?.rights ??
    null;
  const refusals = async (action: string, targetId: string | null) =>
    (
      await db.query<{ after: { refused: string } }>(
        'SELECT after FROM audit_log WHERE action = $1 AND ($2::text IS NULL OR target_id = $2::text) ORDER BY id',
        [`${action}.refused`, targetId],
      )
    ).rows.map((r) => r.after.refused);
  const root = () => rootOrg(portal);

  it('grant a right the actor lacks: refused (403), nothing changes, the refusal is audited', async () => {
    const userManager = await world.client('userManager');
    const target = await world.fresh.member(world.north);
    const before = await rightsOf(target.membershipId);

    const global = await userManager.put(`/api/members/rights/${target.membershipId}`, { rights: { global_full_permission: true } });
    expect(global.status).toBe(403);
    expect((global.body as { i18NTranslationKey: string }).i18NTranslationKey).toBe('cannot_grant_rights_not_held');
    const organizationManager = await userManager.put(`/api/members/rights/${target.membershipId}`, {
      rights: { partner_portal: { user_sub_organization_manager: true } },
    });
    expect(organizationManager.status).toBe(403);
    expect(await rightsOf(target.membershipId)).toEqual(before);
    expect(await refusals('member.rights.update', target.membershipId)).toEqual([
      'cannot_grant_rights_not_held',
      'cannot_grant_rights_not_held',
    ]);

    // a right the actor holds is handed on
    const same = await userManager.put(`/api/members/rights/${target.membershipId}`, {
      rights: { partner_portal: { user_user_manager: true } },
    });
    expect(same.status).toBe(204);

    // invitations follow the same rule
    const email = uniqueEmail('self-invite');
    const invite = await userManager.post(`/api/organizations/${world.dealerA.id}/invitations`, {
      email_address: email,
      language_code: 'en',
      rights: { global_full_permission: true },
    });
    expect(invite.status).toBe(403);
    expect((invite.body as { i18NTranslationKey: string }).i18NTranslationKey).toBe('cannot_grant_rights_not_held');
    expect((await db.query('SELECT 1 FROM invitations WHERE lower(email) = lower($1)', [email])).rowCount).toBe(0);
    expect(await refusals('invitation.create', null)).toContain('cannot_grant_rights_not_held');

    // full partner-portal rights do not hold the apps' rights; the provider's administrator holds everything
    const ancestor = await world.client('ancestorManager');
    const app = await ancestor.put(`/api/members/rights/${target.membershipId}`, { rights: { loyalty: { user_access: true } } });
    expect(app.status).toBe(403);
    const admin = await portal.sessionFor(portal.adminUserId);
    const everything = await admin.put(`/api/members/rights/${target.membershipId}`, { rights: { global_full_permission: true } });
    expect(everything.status).toBe(204);
  });

  it('grant a right the actor lacks, through an invitation made before the rule: accepted with only what the inviter holds', async () => {
    const invitation = await world.fresh.invitation(world.dealerA);
    await db.query('UPDATE invitations SET rights = $2, invited_by = $3 WHERE id = $1', [
      invitation.id,
      JSON.stringify({ global_full_permission: true, partner_portal: { user_user_manager: true } }),
      world.users.userManager.id,
    ]);
    const accepted = await portal.client().put(`/api/invitations/${invitation.id}/accept`, {
      invitation_code: invitation.code,
      first_name: 'Second',
      last_name: 'Address',
      language_code: 'en',
      password: USER_PASSWORD,
      password_confirmation: USER_PASSWORD,
      accept_agreement: true,
    });
    expect(accepted.status, accepted.text).toBe(204);
    const { rows } = await db.query<{ rights: Record<string, unknown> }>(
      'SELECT m.rights FROM memberships m JOIN users u ON u.id = m.user_id WHERE lower(u.email) = lower($1)',
      [invitation.email],
    );
    const { toRights, isOrganizationManager } = await import('@partner-portal/contracts');
    const rights = toRights(rows[0]!.rights);
    expect(rights.global_full_permission).toBe(false);
    expect(rights.partner_portal.user_user_manager).toBe(true);
    expect(isOrganizationManager(rights)).toBe(false);
  });

  it('change or remove a member with more rights: refused (403) and audited', async () => {
    const userManager = await world.client('userManager');
    const above = await world.fresh.member(world.dealerA, {
      partner_portal: { user_user_manager: true, user_sub_organization_manager: true },
    });
    const strip = await userManager.put(`/api/members/rights/${above.membershipId}`, { rights: {} });
    expect(strip.status).toBe(403);
    expect((strip.body as { i18NTranslationKey: string }).i18NTranslationKey).toBe('cannot_manage_member_with_more_rights');
    const remove = await userManager.delete(`/api/organizations/${world.dealerA.id}/members/${above.membershipId}`);
    expect(remove.status).toBe(403);
    expect(await rightsOf(above.membershipId)).toEqual({
      partner_portal: { user_user_manager: true, user_sub_organization_manager: true },
    });
    expect(await refusals('member.rights.update', above.membershipId)).toEqual(['cannot_manage_member_with_more_rights']);
    expect(await refusals('member.remove', above.membershipId)).toEqual(['cannot_manage_member_with_more_rights']);

    // a userManager of the root organization cannot demote or delete the bootstrap administrator
    const rootUserManager = await world.fresh.member(await root(), { partner_portal: { user_user_manager: true } });
    const client = await portal.sessionFor(rootUserManager.userId);
    const adminMembership = (await db.query<{ id: string }>('SELECT id FROM memberships WHERE user_id = $1', [portal.adminUserId])).rows[0]!
      .id;
    const demote = await client.put(`/api/members/rights/${adminMembership}`, { rights: { partner_portal: { user_user_manager: true } } });
    expect(demote.status).toBe(403);
    const deleted = await client.delete(`/api/organizations/${portal.rootOrganizationId}/members/${adminMembership}`);
    expect(deleted.status).toBe(403);
    expect((await db.query('SELECT 1 FROM users WHERE id = $1', [portal.adminUserId])).rowCount).toBe(1);
  });

  it('remove or demote the last root user manager: 409 last_root_user_manager, audited', async () => {
    const { createModuleServices } = await import('../../src/module-services.js');
    const { members } = createModuleServices(portal.services, portal.app.oidc);
    const { providerAdministratorRights } = await import('../../src/bootstrap.js');
    const { toRights } = await import('@partner-portal/contracts');
    const rootOrg = await root();
    const adminMembership = (
      await db.query<{ id: string; rights: unknown }>('SELECT id, rights FROM memberships WHERE user_id = $1', [portal.adminUserId])
    ).rows[0]!;
    // clear the root organization of other user managers made by earlier rows
    const others = await db.query<{ id: string; rights: unknown }>(
      'SELECT id, rights FROM memberships WHERE organization_id = $1 AND id <> $2',
      [rootOrg.id, adminMembership.id],
    );
    await db.query('UPDATE memberships SET rights = $2 WHERE organization_id = $1 AND id <> $3', [rootOrg.id, '{}', adminMembership.id]);
    // a second administrator, a developer with every right of the root organization
    const second = await world.fresh.member(rootOrg, providerAdministratorRights());
    await db.query('UPDATE users SET is_developer = true WHERE id = $1', [second.userId]);
    // the bootstrap administrator's request is under way, with its session read while it still was a user manager
    const adminSession = personActor(
      {
        id: portal.adminUserId,
        sessionIdHash: 'in-flight',
        email: 'admin@example.com',
        firstName: 'Portal',
        lastName: 'Administrator',
        languageCode: 'en',
        externalIdentityProvider: null,
        isDeveloper: true,
        membershipId: adminMembership.id,
        organizationId: rootOrg.id,
        organizationName: rootOrg.name,
        organizationPath: rootOrg.path,
        isProviderOrganization: true,
        rights: toRights(adminMembership.rights),
        userManager: true,
        organizationManager: true,
        mustChangePassword: false,
      },
      'in-flight-request',
    );
    try {
      // meanwhile the second administrator demotes the bootstrap administrator (allowed: another user manager remains)
      const secondClient = await portal.sessionFor(second.userId);
      const demoted = await secondClient.put(`/api/members/rights/${adminMembership.id}`, {
        rights: { partner_portal: { developer: true } },
      });
      expect(demoted.status).toBe(204);
      // …so the bootstrap administrator's demotion or removal of the second would leave nobody
      await expect(members.changeRights(adminSession, second.membershipId, toRights({}))).rejects.toMatchObject({
        key: 'last_root_user_manager',
        status: 409,
      });
      await expect(members.remove(adminSession, rootOrg.id, second.membershipId)).rejects.toMatchObject({
        key: 'last_root_user_manager',
        status: 409,
      });
      expect(toRights(await rightsOf(second.membershipId)).partner_portal.user_full_permission).toBe(false);
      expect(toRights(await rightsOf(second.membershipId)).partner_portal.nedap_user_full_permission).toBe(true);
      expect(await refusals('member.rights.update', second.membershipId)).toEqual(['last_root_user_manager']);
      expect(await refusals('member.remove', second.membershipId)).toEqual(['last_root_user_manager']);

      // over HTTP, two administrators demoting each other at once: one wins, the root keeps a user manager
      await db.query('UPDATE memberships SET rights = $2 WHERE id = $1', [adminMembership.id, adminMembership.rights]);
      const adminClient = await portal.sessionFor(portal.adminUserId);
      const [a, b] = await Promise.all([
        adminClient.put(`/api/members/rights/${second.membershipId}`, { rights: { partner_portal: { developer: true } } }),
        secondClient.put(`/api/members/rights/${adminMembership.id}`, { rights: { partner_portal: { developer: true } } }),
      ]);
      expect([a.status, b.status].sort()).toContain(204);
      expect([a.status, b.status].filter((s) => s >= 500)).toEqual([]);
      const left = await db.query<{ rights: unknown }>('SELECT rights FROM memberships WHERE organization_id = $1', [rootOrg.id]);
      const { isUserManager } = await import('@partner-portal/contracts');
      expect(left.rows.filter((r) => isUserManager(toRights(r.rights))).length).toBeGreaterThanOrEqual(1);
    } finally {
      await db.query('UPDATE memberships SET rights = $2 WHERE id = $1', [adminMembership.id, adminMembership.rights]);
      for (const o of others.rows) await db.query('UPDATE memberships SET rights = $2 WHERE id = $1', [o.id, o.rights]);
    }
  });
});
