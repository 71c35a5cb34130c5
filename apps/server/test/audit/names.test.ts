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
  const res = await f.userMgrA.client.get(`/api/audit?organizationId=${f.tree.a.id}&action=${action}`);
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

  it('keeps the e-mail address of a removed member (in the entry) while their name is gone', async () => {
    const member = await createMember(portal, f.tree.a, 'Gone', () => undefined);
    const removed = await f.userMgrA.client.delete(`/api/organizations/${f.tree.a.id}/members/${member.memberId}`);
    expect(removed.status).toBeLessThan(300);
    const entry = await entryOf('member.remove', member.memberId);
    expect(entry).toMatchObject({ subject_name: null, subject_email: null, before: { email_address: member.email } });
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
