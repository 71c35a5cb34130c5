import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPortalWith, type TestPortal } from '../support/portal.js';
import { buildFixture, type Fixture } from '../organizations/fixtures.js';
import { askAndStore, auditEntries, storedRequests, uniqueDomain, verifyDomain } from './support.js';

/**
 * The pending requests seen, approved and declined by the userManagers they were routed to
 * (docs/dealer-identity.md, "Access requests"). The tree is organizations/fixtures.ts': dealer-a
 * (userMgrA, orgMgrA, plainA) → north (mgrNorth) → farm 1 → barn; dealer-b (mgrB, the sibling).
 */
let portal: TestPortal;
let f: Fixture;
let northDomain: string;
let southDomain: string;

beforeAll(async () => {
  ({ portal, built: f } = await startPortalWith(buildFixture, { TRUST_PROXY: 'true' }));
  northDomain = uniqueDomain('north');
  southDomain = uniqueDomain('south');
  await verifyDomain(portal, f.tree.north, northDomain);
  await verifyDomain(portal, f.tree.south, southDomain);
});
afterAll(() => portal?.close());

let counter = 0;
/** A pending request routed to north (or to dealer-a, for an address of south's domain). */
function pendingRequest(options: { domain?: string; language?: string; first?: string } = {}) {
  const email = `visitor-${++counter}@${options.domain ?? northDomain}`;
  return askAndStore(portal, { email_address: email, language_code: options.language ?? 'en', first_name: options.first ?? 'Anna' });
}

describe('GET /api/organizations/{id}/access-requests', () => {
  it('lists the pending requests of the subtree, oldest first, to its userManagers only', async () => {
    const first = await pendingRequest();
    const second = await pendingRequest({ domain: southDomain });
    const third = await pendingRequest();

    const north = await f.mgrNorth.client.get(`/api/organizations/${f.tree.north.id}/access-requests`);
    expect(north.status).toBe(200);
    const northIds = north.body.map((r: any) => r.id);
    expect(northIds).toEqual(expect.arrayContaining([first.id, third.id]));
    expect(northIds).not.toContain(second.id);
    expect(northIds.indexOf(first.id)).toBeLessThan(northIds.indexOf(third.id));
    expect(north.body.find((r: any) => r.id === first.id)).toEqual({
      id: first.id,
      email_address: first.email,
      first_name: 'Anna',
      last_name: 'Berg',
      message: null,
      language_code: 'en',
      organization_id: f.tree.north.id,
      created_at: expect.any(String),
    });

    // dealer-a's userManager sees its own and north's
    const a = await f.userMgrA.client.get(`/api/organizations/${f.tree.a.id}/access-requests`);
    expect(a.status).toBe(200);
    expect(a.body.map((r: any) => r.id)).toEqual(expect.arrayContaining([first.id, second.id, third.id]));
    const created = a.body.map((r: any) => r.created_at);
    expect([...created].sort()).toEqual(created);

    // north's manager cannot look above; the sibling's manager sees nothing of dealer-a; others have no right
    expect((await f.mgrNorth.client.get(`/api/organizations/${f.tree.a.id}/access-requests`)).status).toBe(403);
    expect((await f.mgrB.client.get(`/api/organizations/${f.tree.north.id}/access-requests`)).status).toBe(403);
    const own = await f.mgrB.client.get(`/api/organizations/${f.tree.b.id}/access-requests`);
    expect(own.status).toBe(200);
    expect(own.body).toEqual([]);
    expect((await f.orgMgrA.client.get(`/api/organizations/${f.tree.north.id}/access-requests`)).status).toBe(403);
    expect((await f.plainA.client.get(`/api/organizations/${f.tree.north.id}/access-requests`)).status).toBe(403);
    expect((await portal.client().get(`/api/organizations/${f.tree.north.id}/access-requests`)).status).toBe(401);
    expect((await f.mgrNorth.client.get(`/api/organizations/00000000-0000-4000-8000-000000000000/access-requests`)).status).toBe(404);
  });
});

describe('PUT /api/access-requests/{id}/approve', () => {
  it('sends the invitation into a chosen sub-organization, in the request’s language; APPROVED, audited; twice is 409', async () => {
    const request = await pendingRequest({ language: 'de' });
    const res = await f.mgrNorth.client.put(`/api/access-requests/${request.id}/approve`, {
      organization_id: f.tree.farm.id,
      rights: { partner_portal: { user_user_manager: true } },
    });
    expect(res.status, res.text).toBe(201);
    const invitationId = res.body.invitation_id;
    expect(res.body).toEqual({ invitation_id: expect.any(String) });

    const { rows } = await portal.services.db.query<{
      organization_id: string;
      email: string;
      language_code: string;
      state: string;
      rights: any;
    }>('SELECT organization_id, email, language_code, state, rights FROM invitations WHERE id = $1', [invitationId]);
    expect(rows[0]).toMatchObject({ organization_id: f.tree.farm.id, email: request.email, language_code: 'de', state: 'PENDING' });
    expect(rows[0]!.rights.partner_portal.user_user_manager).toBe(true);
    const mail = await portal.smtp.waitFor(request.email, (m) => m.links.some((l) => l.includes(`/invitation/${invitationId}`)));
    expect(mail.subject).toBe(`Sie sind zum Partner Portal von ${f.tree.farm.name} eingeladen`);

    const [stored] = await storedRequests(portal, request.email);
    expect(stored).toMatchObject({ state: 'APPROVED', invitation_id: invitationId, decided_by: f.mgrNorth.userId });
    expect(stored!.decided_at).toBeTruthy();
    const [entry] = await auditEntries(portal, 'access_request.approve', request.id);
    expect(entry).toMatchObject({ actor_user_id: f.mgrNorth.userId, organization_id: f.tree.north.id });
    expect(entry!.after).toMatchObject({ state: 'APPROVED', invitation_id: invitationId, organization_id: f.tree.farm.id });
    expect(await auditEntries(portal, 'invitation.create', invitationId)).toHaveLength(1);

    const again = await f.mgrNorth.client.put(`/api/access-requests/${request.id}/approve`, {});
    expect(again.status).toBe(409);
    expect(again.body.i18NTranslationKey).toBe('access_request_not_pending');
    expect((await f.mgrNorth.client.put(`/api/access-requests/${request.id}/decline`)).status).toBe(409);
  });

  it('invites into the request’s own organization by default, also without a body', async () => {
    const request = await pendingRequest();
    const res = await f.userMgrA.client.request('PUT', `/api/access-requests/${request.id}/approve`);
    expect(res.status, res.text).toBe(201);
    const { rows } = await portal.services.db.query<{ organization_id: string }>('SELECT organization_id FROM invitations WHERE id = $1', [
      res.body.invitation_id,
    ]);
    expect(rows[0]!.organization_id).toBe(f.tree.north.id);
  });

  it('refuses an organization outside the approver’s subtree and rights above the approver’s; the request stays pending', async () => {
    const request = await pendingRequest();
    const outside = await f.mgrNorth.client.put(`/api/access-requests/${request.id}/approve`, { organization_id: f.tree.b.id });
    expect(outside.status).toBe(403);
    const above = await f.mgrNorth.client.put(`/api/access-requests/${request.id}/approve`, { organization_id: f.tree.a.id });
    expect(above.status).toBe(403);
    const unknown = await f.mgrNorth.client.put(`/api/access-requests/${request.id}/approve`, {
      organization_id: '00000000-0000-4000-8000-000000000000',
    });
    expect(unknown.status).toBe(404);

    const rights = await f.mgrNorth.client.put(`/api/access-requests/${request.id}/approve`, { rights: { global_full_permission: true } });
    expect(rights.status).toBe(403);
    expect(rights.body.i18NTranslationKey).toBe('cannot_grant_rights_not_held');
    const refusals = await portal.services.db.query<{ after: any }>(
      `SELECT after FROM audit_log WHERE action = 'invitation.create.refused' AND after->'attempted'->>'email_address' = $1`,
      [request.email],
    );
    expect(refusals.rows.map((r) => r.after.refused)).toEqual(['cannot_grant_rights_not_held']);

    const [stored] = await storedRequests(portal, request.email);
    expect(stored).toMatchObject({ state: 'PENDING', invitation_id: null, decided_by: null });
    expect((await portal.services.db.query('SELECT 1 FROM invitations WHERE lower(email) = lower($1)', [request.email])).rowCount).toBe(0);
    expect(await auditEntries(portal, 'access_request.approve', request.id)).toEqual([]);
  });

  it('applies the other rules of inviting: allowed e-mail domains, one pending invitation per address', async () => {
    const request = await pendingRequest();
    await portal.services.db.query(`INSERT INTO organization_email_domains (organization_id, domain) VALUES ($1, 'elsewhere.example')`, [
      f.tree.farm.id,
    ]);
    const domains = await f.mgrNorth.client.put(`/api/access-requests/${request.id}/approve`, { organization_id: f.tree.farm.id });
    expect(domains.status).toBe(409);
    expect(domains.body.i18NTranslationKey).toBe('not_allowed_to_invite_other_domains');

    const invited = await f.mgrNorth.client.post(`/api/organizations/${f.tree.north.id}/invitations`, { email_address: request.email });
    expect(invited.status).toBe(201);
    const pending = await f.mgrNorth.client.put(`/api/access-requests/${request.id}/approve`, {});
    expect(pending.status).toBe(409);
    expect(pending.body.i18NTranslationKey).toBe('invitation_already_pending');
    expect((await storedRequests(portal, request.email))[0]!.state).toBe('PENDING');
  });

  it('is for userManagers of the request’s subtree only: 403 for others, 404 for an unknown request', async () => {
    const request = await pendingRequest();
    for (const actor of [f.mgrB, f.orgMgrA, f.plainA, f.farmer]) {
      expect((await actor.client.put(`/api/access-requests/${request.id}/approve`, {})).status).toBe(403);
      expect((await actor.client.put(`/api/access-requests/${request.id}/decline`)).status).toBe(403);
    }
    expect((await portal.client().put(`/api/access-requests/${request.id}/approve`, {})).status).toBe(401);
    // routed to dealer-a: north's manager is below it
    const above = await pendingRequest({ domain: southDomain });
    expect((await f.mgrNorth.client.put(`/api/access-requests/${above.id}/approve`, {})).status).toBe(403);
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await f.mgrNorth.client.put(`/api/access-requests/${unknown}/approve`, {})).status).toBe(404);
    expect((await f.mgrNorth.client.put(`/api/access-requests/${unknown}/decline`)).status).toBe(404);
    expect((await f.mgrNorth.client.put(`/api/access-requests/not-a-uuid/decline`)).status).toBe(400);
    expect((await storedRequests(portal, request.email))[0]!.state).toBe('PENDING');
  });
});

describe('PUT /api/access-requests/{id}/decline', () => {
  it('tells the requester in their language; DECLINED, audited; twice is 409; a new request may follow', async () => {
    const request = await pendingRequest({ language: 'de', first: 'Greta' });
    const res = await f.mgrNorth.client.put(`/api/access-requests/${request.id}/decline`);
    expect(res.status).toBe(204);
    const mail = await portal.smtp.waitFor(request.email, (m) => m.subject.includes('Anfrage'));
    expect(mail.subject).toBe('Ihre Anfrage für den Zugang zum Partner Portal');
    expect(mail.text).toContain('Hallo Greta,');
    expect(mail.text).toContain('abgelehnt');

    const [stored] = await storedRequests(portal, request.email);
    expect(stored).toMatchObject({ state: 'DECLINED', decided_by: f.mgrNorth.userId, invitation_id: null });
    const [entry] = await auditEntries(portal, 'access_request.decline', request.id);
    expect(entry).toMatchObject({ actor_user_id: f.mgrNorth.userId, organization_id: f.tree.north.id });
    expect(entry!.after).toEqual({ state: 'DECLINED' });
    // the subtree's audit trail shows the request and its answer to its managers
    const trail = await f.userMgrA.client.get(`/api/audit?organizationId=${f.tree.a.id}`);
    expect(trail.status).toBe(200);
    const seen = trail.body.entries.filter((e: any) => e.target_id === request.id).map((e: any) => [e.action, e.actor_email]);
    expect(seen).toEqual(
      expect.arrayContaining([
        ['access_request.create', request.email],
        ['access_request.decline', f.mgrNorth.email],
      ]),
    );

    const again = await f.mgrNorth.client.put(`/api/access-requests/${request.id}/decline`);
    expect(again.status).toBe(409);
    expect(again.body.i18NTranslationKey).toBe('access_request_not_pending');
    expect((await f.mgrNorth.client.put(`/api/access-requests/${request.id}/approve`, {})).status).toBe(409);
    await portal.mailSettled();
    expect(portal.smtp.to(request.email).filter((m) => m.subject.includes('Anfrage'))).toHaveLength(1);

    // declined is answered: the address may ask again
    const next = await askAndStore(portal, { email_address: request.email });
    expect(next.id).not.toBe(request.id);
  });
});
