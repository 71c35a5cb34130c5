import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPortalWith, type TestPortal } from '../support/portal.js';
import type { HttpResponse } from '../support/http.js';
import { buildFixture, type Fixture } from '../organizations/fixtures.js';
import { askAndStore, auditEntries, storedRequests, uniqueDomain, verifyDomain } from './support.js';

/**
 * An access request is decided once and its e-mail sent once, however many decisions arrive at the
 * same time (docs/security.md, "Findings of the penetration test of 2026-11"): the request is
 * decided under its row lock (apps/server/src/modules/access-requests/service.ts,
 * pendingForDecision), so the requests that waited see it decided and answer 409.
 */
let portal: TestPortal;
let f: Fixture;
let domain: string;

beforeAll(async () => {
  ({ portal, built: f } = await startPortalWith(buildFixture, { TRUST_PROXY: 'true' }));
  domain = uniqueDomain('burst');
  await verifyDomain(portal, f.tree.north, domain);
});
afterAll(() => portal?.close());

const BURST = 10;
let counter = 0;

/** A pending request routed to north; the managers' e-mails about it are left aside. */
function pendingRequest() {
  return askAndStore(portal, { email_address: `burst-${++counter}@${domain}`, language_code: 'en' });
}

function invitationMails(email: string) {
  return portal.smtp.to(email).filter((m) => m.links.some((l) => l.includes('/invitation/')));
}

function declinedMails(email: string) {
  return portal.smtp.to(email).filter((m) => m.subject === 'Your request for access to the Partner Portal');
}

async function invitationsOf(email: string): Promise<string[]> {
  const { rows } = await portal.services.db.query<{ id: string }>('SELECT id FROM invitations WHERE lower(email) = lower($1)', [email]);
  return rows.map((r) => r.id);
}

/** The answers are one `winner` and the rest 409 access_request_not_pending (never a 5xx). */
function expectOneWinner(answers: HttpResponse[], winner: number): HttpResponse {
  for (const res of answers) expect(res.status, res.text).toBeLessThan(500);
  const won = answers.filter((r) => r.status === winner);
  expect(won).toHaveLength(1);
  const lost = answers.filter((r) => r.status !== winner);
  expect(lost.map((r) => [r.status, r.body.i18NTranslationKey])).toEqual(Array(BURST - 1).fill([409, 'access_request_not_pending']));
  return won[0]!;
}

describe('access requests decided many times at once', () => {
  it('ten concurrent approvals make one invitation and send one e-mail', async () => {
    const request = await pendingRequest();
    const answers = await Promise.all(
      Array.from({ length: BURST }, () => f.mgrNorth.client.put(`/api/access-requests/${request.id}/approve`, {})),
    );
    const won = expectOneWinner(answers, 201);

    await expect.poll(() => invitationMails(request.email).length, { timeout: 10_000 }).toBe(1);
    await portal.mailSettled();
    expect(invitationMails(request.email)).toHaveLength(1);
    expect(invitationMails(request.email)[0]!.links.some((l) => l.includes(`/invitation/${won.body.invitation_id}`))).toBe(true);
    expect(await invitationsOf(request.email)).toEqual([won.body.invitation_id]);
    expect(await storedRequests(portal, request.email)).toMatchObject([{ state: 'APPROVED', invitation_id: won.body.invitation_id }]);
    expect(await auditEntries(portal, 'access_request.approve', request.id)).toHaveLength(1);
  });

  it('ten concurrent declines decline once and send one e-mail', async () => {
    const request = await pendingRequest();
    const answers = await Promise.all(
      Array.from({ length: BURST }, () => f.mgrNorth.client.put(`/api/access-requests/${request.id}/decline`)),
    );
    expectOneWinner(answers, 204);

    await expect.poll(() => declinedMails(request.email).length, { timeout: 10_000 }).toBe(1);
    await portal.mailSettled();
    expect(declinedMails(request.email)).toHaveLength(1);
    expect(await storedRequests(portal, request.email)).toMatchObject([{ state: 'DECLINED', invitation_id: null }]);
    expect(await auditEntries(portal, 'access_request.decline', request.id)).toHaveLength(1);
  });

  it('approvals and declines at once: exactly one decision, and only its e-mail', async () => {
    const request = await pendingRequest();
    const calls = Array.from({ length: BURST }, (_, i) => (i % 2 === 0 ? 'approve' : 'decline'));
    const answers = await Promise.all(calls.map((call) => f.userMgrA.client.put(`/api/access-requests/${request.id}/${call}`, {})));
    for (const res of answers) expect(res.status, res.text).toBeLessThan(500);
    const won = answers.filter((r) => r.status === 201 || r.status === 204);
    expect(won).toHaveLength(1);
    expect(answers.filter((r) => r.status === 409)).toHaveLength(BURST - 1);

    await portal.mailSettled();
    const [stored] = await storedRequests(portal, request.email);
    if (stored!.state === 'APPROVED') {
      expect(invitationMails(request.email)).toHaveLength(1);
      expect(declinedMails(request.email)).toHaveLength(0);
      expect(await invitationsOf(request.email)).toEqual([stored!.invitation_id]);
    } else {
      expect(stored!.state).toBe('DECLINED');
      expect(declinedMails(request.email)).toHaveLength(1);
      expect(invitationMails(request.email)).toHaveLength(0);
      expect(await invitationsOf(request.email)).toEqual([]);
    }
  });
});
