import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPortalWith, type TestPortal } from '../support/portal.js';
import { buildFixture, type Fixture } from './fixtures.js';

let portal: TestPortal;
let f: Fixture;

beforeAll(async () => ({ portal, built: f } = await startPortalWith(buildFixture)));
afterAll(() => portal?.close());

const memberOf = (body: { members: { id: string }[] }, id: string) => body.members.find((m) => m.id === id) as Record<string, any>;

describe('GET /api/organizations/{id}: what a userManager sees of members', () => {
  it('tells which members have a second factor, and their rights', async () => {
    await portal.services.db.query("INSERT INTO user_totp (user_id, secret_encrypted, confirmed_at) VALUES ($1, 'x', now())", [
      f.plainA.userId,
    ]);
    const res = await f.userMgrA.client.get(`/api/organizations/${f.tree.a.id}`);
    expect(res.status).toBe(200);
    expect(memberOf(res.body, f.plainA.memberId)).toMatchObject({ has_second_factor: true });
    expect(memberOf(res.body, f.fullA.memberId)).toMatchObject({ has_second_factor: false });
    expect(memberOf(res.body, f.userMgrA.memberId).rights.partner_portal.user_user_manager).toBe(true);
    expect(memberOf(res.body, f.orgMgrA.memberId).rights.partner_portal.user_sub_organization_manager).toBe(true);
  });

  it('gives an organizationManager who is no userManager neither', async () => {
    const res = await f.orgMgrA.client.get(`/api/organizations/${f.tree.a.id}`);
    expect(res.status).toBe(200);
    const plain = memberOf(res.body, f.plainA.memberId);
    expect(plain).not.toHaveProperty('rights');
    expect(plain).not.toHaveProperty('has_second_factor');
  });

  it('tells the same in the people search', async () => {
    const res = await f.userMgrA.client.get(`/api/members/search?organizationId=${f.tree.a.id}&q=`);
    expect(res.status).toBe(200);
    expect(memberOf(res.body, f.plainA.memberId)).toMatchObject({ has_second_factor: true });
    expect(memberOf(res.body, f.farmer.memberId)).toMatchObject({ has_second_factor: false, rights: { global_full_permission: false } });
  });
});

describe('expired invitations', () => {
  async function expiredInvitation(email: string): Promise<string> {
    const created = await f.userMgrA.client.post(`/api/organizations/${f.tree.south.id}/invitations`, { email_address: email });
    expect(created.status).toBe(201);
    const id: string = created.body.invitation.invitation_id;
    await portal.services.db.query("UPDATE invitations SET expires_at = now() - interval '1 minute' WHERE id = $1", [id]);
    return id;
  }
  const south = () => f.userMgrA.client.get(`/api/organizations/${f.tree.south.id}`);

  it('are listed apart, marked EXPIRED with their expiry, and may be sent again', async () => {
    const id = await expiredInvitation('lapsed@example.com');
    const before = await south();
    expect(before.body.pending_invitations.map((i: any) => i.invitation_id)).not.toContain(id);
    const listed = before.body.expired_invitations.find((i: any) => i.invitation_id === id);
    expect(listed).toMatchObject({ invitation_state: 'EXPIRED', email_address: 'lapsed@example.com' });
    expect(Date.parse(listed.expires_at)).toBeLessThan(Date.now());

    expect((await f.userMgrA.client.put(`/api/invitations/${id}/resend`)).status).toBe(204);
    await portal.smtp.waitFor('lapsed@example.com', () => portal.smtp.to('lapsed@example.com').length === 2);
    const after = await south();
    expect(after.body.pending_invitations.find((i: any) => i.invitation_id === id)).toMatchObject({ invitation_state: 'PENDING' });
    expect(after.body.expired_invitations.map((i: any) => i.invitation_id)).not.toContain(id);
  });

  it('are resent even when already swept to EXPIRED, but not while the address has another pending invitation', async () => {
    const id = await expiredInvitation('swept@example.com');
    await portal.services.db.query("UPDATE invitations SET state = 'EXPIRED' WHERE id = $1", [id]);
    expect((await f.userMgrA.client.put(`/api/invitations/${id}/resend`)).status).toBe(204);
    expect((await portal.services.db.query('SELECT state FROM invitations WHERE id = $1', [id])).rows[0]?.state).toBe('PENDING');

    const old = await expiredInvitation('twice@example.com');
    const again = await f.userMgrA.client.post(`/api/organizations/${f.tree.south.id}/invitations`, { email_address: 'twice@example.com' });
    expect(again.status).toBe(201);
    expect((await south()).body.expired_invitations.map((i: any) => i.invitation_id)).not.toContain(old);
    const refused = await f.userMgrA.client.put(`/api/invitations/${old}/resend`);
    expect(refused.status).toBe(409);
    expect(refused.body.i18NTranslationKey).toBe('invitation_already_pending');
  });

  it('may be revoked (then no longer listed); not by someone outside the subtree', async () => {
    const id = await expiredInvitation('gone@example.com');
    expect((await f.mgrB.client.put(`/api/invitations/${id}/revoke`)).status).toBe(403);
    expect((await f.mgrB.client.put(`/api/invitations/${id}/resend`)).status).toBe(403);
    expect((await f.userMgrA.client.put(`/api/invitations/${id}/revoke`)).status).toBe(204);
    expect((await south()).body.expired_invitations.map((i: any) => i.invitation_id)).not.toContain(id);
  });
});

describe('GET /api/organizations/{id} asked many times at once', () => {
  it('shares its reads, yet each answer holds every change made before it was asked, and only what its asker may see', async () => {
    const url = `/api/organizations/${f.tree.a.id}`;
    const before = (await f.userMgrA.client.get(url)).body.name as string;
    // a userManager and an organizationManager at once: the shared read, each shown its own view
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? f.orgMgrA : f.userMgrA).client.get(url)));
    for (const [i, res] of answers.entries()) {
      expect(res.status).toBe(200);
      const plain = memberOf(res.body, f.plainA.memberId);
      if (i % 2) expect(plain).not.toHaveProperty('rights');
      else expect(plain.rights).toBeTruthy();
    }
    // requests in flight while the organization is renamed: those asked after the rename see it
    const inFlight = Array.from({ length: 10 }, () => f.userMgrA.client.get(url));
    await portal.services.db.query('UPDATE organizations SET name = $2 WHERE id = $1', [f.tree.a.id, 'Renamed while read']);
    const after = await Promise.all(Array.from({ length: 10 }, () => f.userMgrA.client.get(url)));
    for (const res of after) expect(res.body.name).toBe('Renamed while read');
    for (const res of await Promise.all(inFlight)) expect(res.status).toBe(200);
    await portal.services.db.query('UPDATE organizations SET name = $2 WHERE id = $1', [f.tree.a.id, before]);
  });
});
