import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpClient } from '../support/http.js';
import { startPortal, type TestPortal } from '../support/portal.js';
import { createMember, createOrg, rights, rootOrg, type Org } from '../organizations/fixtures.js';

/**
 * The authorization matrix of the organization administration API: every endpoint of the organization administration ×
 * the actors of the issue, on a target in the organization "north" of a four-level tree
 * (nedap → dealer-a → north → farm). Allowed means a 2xx answer; denied means exactly 401 for the
 * anonymous visitor and 403 for everybody else. Both unexpected allows and unexpected denials fail.
 */
type Actor = 'anonymous' | 'member' | 'userManager' | 'organizationManager' | 'siblingManager' | 'ancestorManager' | 'providerAdmin';
const ACTORS: Actor[] = ['anonymous', 'member', 'userManager', 'organizationManager', 'siblingManager', 'ancestorManager', 'providerAdmin'];

let portal: TestPortal;
let north: Org;
const clients = {} as Record<Actor, HttpClient>;

beforeAll(async () => {
  portal = await startPortal();
  const root = await rootOrg(portal);
  const a = await createOrg(portal, root, 'Dealer A', { canCreate: true });
  north = await createOrg(portal, a, 'North', { canCreate: true });
  await createOrg(portal, north, 'Farm');
  const south = await createOrg(portal, a, 'South', { canCreate: true });
  clients.anonymous = portal.client();
  clients.member = (await createMember(portal, north, 'member', (r) => (r.media_library.user_access = true))).client;
  clients.userManager = (await createMember(portal, north, 'usermanager', (r) => (r.partner_portal.user_user_manager = true))).client;
  clients.organizationManager = (
    await createMember(portal, north, 'orgmanager', (r) => (r.partner_portal.user_sub_organization_manager = true))
  ).client;
  clients.siblingManager = (await createMember(portal, south, 'sibling', (r) => (r.partner_portal.user_full_permission = true))).client;
  clients.ancestorManager = (await createMember(portal, a, 'ancestor', (r) => (r.partner_portal.user_full_permission = true))).client;
  clients.providerAdmin = await portal.sessionFor(portal.adminUserId);
});
afterAll(() => portal?.close());

let seq = 0;
const fresh = {
  organization: () => createOrg(portal, north, `Target ${++seq}`, { canCreate: true }),
  member: async () => (await createMember(portal, north, `target${++seq}`, rights())).memberId,
  invitation: async () => {
    const email = `invitee${++seq}@example.com`;
    const res = await clients.providerAdmin.post(`/api/organizations/${north.id}/invitations`, { email_address: email });
    const mail = await portal.smtp.waitFor(email);
    const url = new URL(mail.links.find((l) => l.includes('/invitation'))!);
    return { id: res.body.invitation.invitation_id as string, code: url.searchParams.get('code')! };
  },
};

interface Case {
  name: string;
  allowed: Actor[];
  call: (client: HttpClient) => Promise<{ status: number }>;
}

const SIGNED_IN: Actor[] = ['member', 'userManager', 'organizationManager', 'siblingManager', 'ancestorManager', 'providerAdmin'];
const USER_MANAGERS: Actor[] = ['userManager', 'ancestorManager', 'providerAdmin'];
const ORG_MANAGERS: Actor[] = ['organizationManager', 'ancestorManager', 'providerAdmin'];
const MANAGERS_OF_NORTH: Actor[] = ['userManager', 'organizationManager', 'ancestorManager', 'providerAdmin'];
const ANY_MANAGER: Actor[] = ['userManager', 'organizationManager', 'siblingManager', 'ancestorManager', 'providerAdmin'];

const CASES: Case[] = [
  { name: 'GET /api/organizations/tree', allowed: ANY_MANAGER, call: (c) => c.get('/api/organizations/tree') },
  { name: 'GET /api/organizations/{id}', allowed: MANAGERS_OF_NORTH, call: (c) => c.get(`/api/organizations/${north.id}`) },
  {
    name: 'POST /api/organizations',
    allowed: ORG_MANAGERS,
    call: (c) => c.post('/api/organizations', { parent_organization_id: north.id, name: `Created ${++seq}` }),
  },
  {
    name: 'PATCH /api/organizations/{id}',
    allowed: ORG_MANAGERS,
    call: async (c) => c.patch(`/api/organizations/${(await fresh.organization()).id}`, { name: `Renamed ${++seq}` }),
  },
  {
    name: 'DELETE /api/organizations/{id}',
    allowed: ORG_MANAGERS,
    call: async (c) => c.delete(`/api/organizations/${(await fresh.organization()).id}`),
  },
  {
    name: 'PATCH /api/organizations/{id}/apps',
    allowed: ORG_MANAGERS,
    call: async (c) => c.patch(`/api/organizations/${(await fresh.organization()).id}/apps`, { client_ids: ['media-library'] }),
  },
  {
    name: 'PATCH /api/organizations/{id}/can-create-sub-organizations',
    allowed: ORG_MANAGERS,
    call: async (c) =>
      c.patch(`/api/organizations/${(await fresh.organization()).id}/can-create-sub-organizations?canCreateSubOrganizations=false`),
  },
  {
    name: 'PUT /api/organizations/{id}/allowed-email-domains',
    allowed: ['providerAdmin'],
    call: (c) => c.put(`/api/organizations/${north.id}/allowed-email-domains`, { allowed_email_domains: [] }),
  },
  {
    name: 'POST /api/organizations/{id}/invitations',
    allowed: USER_MANAGERS,
    call: (c) => c.post(`/api/organizations/${north.id}/invitations`, { email_address: `new${++seq}@example.com` }),
  },
  {
    name: 'GET /api/invitations/{id}',
    allowed: ['anonymous', ...SIGNED_IN],
    call: async (c) => {
      const i = await fresh.invitation();
      return c.get(`/api/invitations/${i.id}?code=${i.code}`);
    },
  },
  {
    name: 'PUT /api/invitations/{id}/resend',
    allowed: USER_MANAGERS,
    call: async (c) => c.put(`/api/invitations/${(await fresh.invitation()).id}/resend`),
  },
  {
    name: 'PUT /api/invitations/{id}/revoke',
    allowed: USER_MANAGERS,
    call: async (c) => c.put(`/api/invitations/${(await fresh.invitation()).id}/revoke`),
  },
  {
    name: 'PUT /api/invitations/{id}/accept',
    allowed: ['anonymous', ...SIGNED_IN],
    call: async (c) => {
      const i = await fresh.invitation();
      return c.put(`/api/invitations/${i.id}/accept`, {
        invitation_code: i.code,
        first_name: 'A',
        last_name: 'B',
        language_code: 'en',
        password: 'Str0ng-Passw0rd!',
        password_confirmation: 'Str0ng-Passw0rd!',
        accept_agreement: true,
      });
    },
  },
  { name: 'GET /api/members/rights/{id}', allowed: USER_MANAGERS, call: async (c) => c.get(`/api/members/rights/${await fresh.member()}`) },
  {
    name: 'PUT /api/members/rights/{id}',
    allowed: USER_MANAGERS,
    call: async (c) => c.put(`/api/members/rights/${await fresh.member()}`, { rights: { partner_portal: { user_user_manager: true } } }),
  },
  {
    name: 'DELETE /api/organizations/{id}/members/{memberId}',
    allowed: USER_MANAGERS,
    call: async (c) => c.delete(`/api/organizations/${north.id}/members/${await fresh.member()}`),
  },
  { name: 'GET /api/members/search', allowed: MANAGERS_OF_NORTH, call: (c) => c.get(`/api/members/search?organizationId=${north.id}&q=e`) },
  { name: 'GET /api/members/export (own subtree)', allowed: ANY_MANAGER, call: (c) => c.get('/api/members/export?output=csv') },
  {
    name: 'GET /api/members/export?organizationId=north',
    allowed: MANAGERS_OF_NORTH,
    call: (c) => c.get(`/api/members/export?output=xlsx&organizationId=${north.id}`),
  },
  { name: 'GET /api/audit', allowed: MANAGERS_OF_NORTH, call: (c) => c.get(`/api/audit?organizationId=${north.id}`) },
  { name: 'GET /api/developer/organization-export', allowed: ['providerAdmin'], call: (c) => c.get('/api/developer/organization-export') },
  { name: 'GET /api/portal', allowed: SIGNED_IN, call: (c) => c.get('/api/portal') },
  { name: 'GET /api/portal/notifications', allowed: SIGNED_IN, call: (c) => c.get('/api/portal/notifications') },
  { name: 'GET /api/portal/application/features', allowed: SIGNED_IN, call: (c) => c.get('/api/portal/application/features') },
  { name: 'GET /api/portal/profit-calculator', allowed: SIGNED_IN, call: (c) => c.get('/api/portal/profit-calculator') },
];

describe('authorization matrix (organization administration endpoints × actors)', () => {
  const unexpectedAllows: string[] = [];
  const unexpectedDenials: string[] = [];

  for (const c of CASES) {
    it(c.name, async () => {
      const before = unexpectedAllows.length + unexpectedDenials.length;
      for (const actor of ACTORS) {
        const res = await c.call(clients[actor]);
        const allowedHere = c.allowed.includes(actor);
        const ok = res.status >= 200 && res.status < 300;
        if (allowedHere && !ok) unexpectedDenials.push(`${c.name} ${actor}: ${res.status}`);
        if (!allowedHere) {
          const denied = actor === 'anonymous' ? res.status === 401 : res.status === 403;
          if (!denied) unexpectedAllows.push(`${c.name} ${actor}: ${res.status}`);
        }
      }
      expect([...unexpectedAllows, ...unexpectedDenials].slice(before)).toEqual([]);
    });
  }

  it('has 0 unexpected allows and 0 unexpected denials', () => {
    expect(unexpectedAllows).toEqual([]);
    expect(unexpectedDenials).toEqual([]);
  });
});
