import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPortal, type TestPortal } from '../support/portal.js';
import { buildFixture, createMember, rights, type Fixture } from '../organizations/fixtures.js';

let portal: TestPortal;
let f: Fixture;

beforeAll(async () => {
  portal = await startPortal();
  f = await buildFixture(portal);
});
afterAll(() => portal?.close());

const entryOf = async (action: string, targetId: string) => {
  const res = await f.admin.client.get(`/api/audit?organizationId=${f.tree.a.id}&action=${action}`);
  expect(res.status).toBe(200);
  return res.body.entries.find((e: any) => e.target_id === targetId);
};

describe('GET /api/audit: the names an entry’s sentence needs', () => {
  it('gives the actor’s, the member’s and the organization’s names beside the fields it always gave', async () => {
    const member = await createMember(portal, f.tree.a, 'Julia', (r) => (r.academy.user_access = true));
    const changed = await f.admin.client.put(`/api/members/rights/${member.memberId}`, { rights: rights() });
    expect(changed.status).toBeLessThan(300);
    const entry = await entryOf('member.rights.update', member.memberId);
    expect(entry).toMatchObject({
      action: 'member.rights.update',
      actor_email: f.admin.email,
      actor_name: expect.stringMatching(/\S/),
      subject_name: 'Julia Tester',
      subject_email: member.email,
      organization_name: f.tree.a.name,
      before: { email_address: member.email },
    });
  });

  it('keeps the name of a removed member from the entries written before, else only their address', async () => {
    const remove = async (memberId: string) => {
      const removed = await f.admin.client.delete(`/api/organizations/${f.tree.a.id}/members/${memberId}`);
      expect(removed.status).toBeLessThan(300);
      return entryOf('member.remove', memberId);
    };
    // an entry about them: signed out everywhere
    const signedOut = await createMember(portal, f.tree.a, 'Signed', () => undefined);
    expect((await f.admin.client.post(`/api/members/${signedOut.memberId}/sign-out`)).status).toBeLessThan(300);
    expect(await remove(signedOut.memberId)).toMatchObject({ subject_name: 'Signed Tester', before: { email_address: signedOut.email } });
    // an entry they made themselves
    const manager = await createMember(portal, f.tree.a, 'Manager', (r) => (r.partner_portal.user_user_manager = true));
    const other = await createMember(portal, f.tree.a, 'Other', () => undefined);
    expect((await manager.client.post(`/api/members/${other.memberId}/sign-out`)).status).toBeLessThan(300);
    expect(await remove(manager.memberId)).toMatchObject({ subject_name: 'Manager Tester' });
    // no entry before: the address the entry keeps
    const unknown = await createMember(portal, f.tree.a, 'Gone', () => undefined);
    expect(await remove(unknown.memberId)).toMatchObject({
      subject_name: null,
      subject_email: null,
      before: { email_address: unknown.email },
    });
  });

  it('keeps the names as they were when the entry was written', async () => {
    const member = await createMember(portal, f.tree.a, 'Renamed', () => undefined);
    expect((await f.admin.client.post(`/api/members/${member.memberId}/sign-out`)).status).toBeLessThan(300);
    await portal.services.db.query("UPDATE users SET first_name = 'Later' WHERE id = $1", [member.userId]);
    expect(await entryOf('member.sign_out', member.memberId)).toMatchObject({ subject_name: 'Renamed Tester' });
  });

  it('gives an invitation’s address as its subject', async () => {
    const made = await f.userMgrA.client.post(`/api/organizations/${f.tree.a.id}/invitations`, {
      email_address: 'invited.for.names@example.com',
    });
    expect(made.status).toBe(201);
    const id: string = made.body.invitation.invitation_id;
    const revoked = await f.userMgrA.client.put(`/api/invitations/${id}/revoke`);
    expect(revoked.status).toBeLessThan(300);
    const entry = await entryOf('invitation.revoke', id);
    expect(entry).toMatchObject({ subject_name: null, subject_email: 'invited.for.names@example.com', organization_name: f.tree.a.name });
  });
});
