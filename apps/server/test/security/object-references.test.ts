import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPortalWith, type TestPortal } from '../support/portal.js';
import { expectRoutes } from './support/routes.js';
import { buildWorld, type World } from './support/world.js';

/**
 * Object references and mass assignment, beyond the matrix: an id of one subtree paired with an
 * organization of another, fields a client must not set, rights only the provider may hold.
 */
let portal: TestPortal;
let world: World;
beforeAll(async () => ({ portal, built: world } = await startPortalWith(buildWorld)));
afterAll(() => portal?.close());

const exists = async (membershipId: string) =>
  (await portal.services.db.query('SELECT 1 FROM memberships WHERE id = $1', [membershipId])).rows.length === 1;

describe('ids from another subtree', () => {
  it('a userManager cannot remove a member of a sibling organization by pairing it with their own organization', async () => {
    expectRoutes(portal.app, 'DELETE /api/organizations/{organizationId}/members/{memberId}');
    const victim = await world.fresh.member(world.dealerB);
    const manager = await world.client('userManager');
    for (const org of [world.dealerA, world.north]) {
      const res = await manager.delete(`/api/organizations/${org.id}/members/${victim.membershipId}`);
      expect([403, 404], res.text).toContain(res.status);
    }
    expect(await exists(victim.membershipId)).toBe(true);
  });

  it('a userManager cannot read or change the rights of a member outside their subtree', async () => {
    expectRoutes(portal.app, 'PUT /api/members/rights/{memberId}');
    const victim = await world.fresh.member(world.dealerB, { partner_portal: { user_user_manager: true } });
    const manager = await world.client('userManager');
    expect([403, 404]).toContain((await manager.get(`/api/members/rights/${victim.membershipId}`)).status);
    expect([403, 404]).toContain((await manager.put(`/api/members/rights/${victim.membershipId}`, { rights: {} })).status);
    const { rows } = await portal.services.db.query<{ rights: { partner_portal?: { user_user_manager?: boolean } } }>(
      'SELECT rights FROM memberships WHERE id = $1',
      [victim.membershipId],
    );
    expect(rows[0]!.rights.partner_portal?.user_user_manager).toBe(true);
  });

  it('an organizationManager cannot create under, rename or delete an organization of a sibling', async () => {
    expectRoutes(portal.app, 'POST /api/organizations');
    const manager = await world.client('organizationManager');
    const target = await world.fresh.organization(world.dealerB);
    expect([403, 404]).toContain(
      (await manager.post('/api/organizations', { parent_organization_id: world.dealerB.id, name: 'Intruder' })).status,
    );
    expect([403, 404]).toContain((await manager.patch(`/api/organizations/${target.id}`, { name: 'Renamed' })).status);
    expect([403, 404]).toContain((await manager.delete(`/api/organizations/${target.id}`)).status);
    const { rows } = await portal.services.db.query<{ name: string }>('SELECT name FROM organizations WHERE id = $1', [target.id]);
    expect(rows[0]?.name).toBe(target.name);
  });

  it('nobody edits or deletes their own organization or an ancestor of it', async () => {
    expectRoutes(portal.app, 'DELETE /api/organizations/{organizationId}');
    const manager = await world.client('organizationManager');
    for (const org of [world.dealerA, world.partner]) {
      expect([403, 404, 409]).toContain((await manager.delete(`/api/organizations/${org.id}`)).status);
      expect([403, 404, 409]).toContain((await manager.patch(`/api/organizations/${org.id}`, { name: 'Taken over' })).status);
    }
  });
});

describe('mass assignment', () => {
  it('fields a client must not set are ignored or refused when creating an organization', async () => {
    expectRoutes(portal.app, 'POST /api/organizations');
    const manager = await world.client('organizationManager');
    const res = await manager.post('/api/organizations', {
      parent_organization_id: world.north.id,
      name: 'Mass Assignment',
      path: 'root-takeover',
      parent_id: null,
      depth: 0,
      id: '00000000-0000-0000-0000-000000000001',
      max_sub_organizations: 100000,
    });
    if (res.status >= 400) {
      expect(res.status).toBe(400);
      return;
    }
    const { rows } = await portal.services.db.query<{ id: string; parent_id: string; path: string; depth: number }>(
      'SELECT id, parent_id, path, depth FROM organizations WHERE id = $1',
      [res.body.id],
    );
    expect(rows[0]!.parent_id).toBe(world.north.id);
    expect(rows[0]!.path.startsWith(`${world.north.path}/`)).toBe(true);
    expect(rows[0]!.id).not.toBe('00000000-0000-0000-0000-000000000001');
  });

  it('a partner userManager cannot hand out provider-only or developer rights', async () => {
    expectRoutes(portal.app, 'PUT /api/members/rights/{memberId}');
    const member = await world.fresh.member(world.north);
    const manager = await world.client('userManager');
    const res = await manager.put(`/api/members/rights/${member.membershipId}`, {
      rights: {
        partner_portal: { nedap_user_full_permission: true, developer: true },
        ordering_tools: { nedap_user_manage_articles_and_license_items: true },
      },
    });
    expect(res.status).toBeLessThan(500);
    const { rows } = await portal.services.db.query<{ rights: Record<string, Record<string, boolean>> }>(
      'SELECT rights FROM memberships WHERE id = $1',
      [member.membershipId],
    );
    const r = rows[0]!.rights;
    expect(r.partner_portal?.nedap_user_full_permission ?? false).toBe(false);
    expect(r.partner_portal?.developer ?? false).toBe(false);
    expect(r.ordering_tools?.nedap_user_manage_articles_and_license_items ?? false).toBe(false);
  });
});

describe('rights given with an invitation', () => {
  it('provider-only and developer rights in an invitation of a partner userManager do not reach the new member', async () => {
    expectRoutes(portal.app, 'PUT /api/invitations/{invitationId}/accept');
    const manager = await world.client('userManager');
    const email = `escalate-${Date.now().toString(36)}@sec.example.com`;
    const res = await manager.post(`/api/organizations/${world.north.id}/invitations`, {
      email_address: email,
      language_code: 'en',
      rights: {
        partner_portal: { nedap_user_full_permission: true, developer: true, user_user_manager: true },
        ordering_tools: { nedap_user_import_order_references: true },
      },
    });
    expect(res.status).toBeLessThan(500);
    if (res.status >= 400) return; // refused outright: fine
    const mail = await portal.smtp.waitFor(email);
    const link = new URL(mail.links.find((l) => l.includes('/invitation/'))!);
    const accepted = await portal.client().put(`/api/invitations/${link.pathname.split('/').pop()!}/accept`, {
      invitation_code: link.searchParams.get('code'),
      first_name: 'Escalating',
      last_name: 'Invitee',
      language_code: 'en',
      password: 'Secur1ty-Passw0rd!',
      password_confirmation: 'Secur1ty-Passw0rd!',
      accept_agreement: true,
    });
    expect(accepted.status, accepted.text).toBe(204);
    const { rows } = await portal.services.db.query<{ rights: Record<string, Record<string, boolean>> }>(
      'SELECT m.rights FROM memberships m JOIN users u ON u.id = m.user_id WHERE lower(u.email) = lower($1)',
      [email],
    );
    const r = rows[0]!.rights;
    expect(r.partner_portal?.nedap_user_full_permission ?? false).toBe(false);
    expect(r.partner_portal?.developer ?? false).toBe(false);
    expect(r.ordering_tools?.nedap_user_import_order_references ?? false).toBe(false);
  });
});
