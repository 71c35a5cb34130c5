import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPortalWith, type TestPortal } from '../support/portal.js';
import type { HttpResponse } from '../support/http.js';
import { buildFixture, type Fixture } from '../organizations/fixtures.js';

/**
 * A resend changes the invitation once and e-mails it once, however many identical requests ask
 * for it at the same time (docs/security.md, "Findings of the penetration test of 2026-11"): ten
 * concurrent resends of an expired invitation used to send ten e-mails, each with its own code.
 * The rule is in apps/server/src/modules/invitations/service.ts (resend).
 */
let portal: TestPortal;
let f: Fixture;

beforeAll(async () => ({ portal, built: f } = await startPortalWith(buildFixture)));
afterAll(() => portal?.close());

const BURST = 10;

/** Invite an address into south and wait for its e-mail; the invitation's id. */
async function invited(email: string): Promise<string> {
  const created = await f.userMgrA.client.post(`/api/organizations/${f.tree.south.id}/invitations`, { email_address: email });
  expect(created.status, created.text).toBe(201);
  await portal.smtp.waitFor(email);
  return created.body.invitation.invitation_id;
}

/** `BURST` resends of one invitation sent at once. */
function burstOfResends(id: string): Promise<HttpResponse[]> {
  return Promise.all(Array.from({ length: BURST }, () => f.userMgrA.client.put(`/api/invitations/${id}/resend`)));
}

/** The e-mails to an address once the outbox has sent every e-mail the answered requests wrote. */
async function settledMailCount(email: string): Promise<number> {
  await portal.mailSettled();
  return portal.smtp.to(email).length;
}

/** The code of the last e-mail to an address (the link's `code`). */
function lastCode(email: string): string {
  const mails = portal.smtp.to(email);
  const link = mails[mails.length - 1]!.links.find((l) => l.includes('/invitation/'))!;
  return new URL(link).searchParams.get('code')!;
}

async function auditCount(action: string, id: string): Promise<number> {
  const { rows } = await portal.services.db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM audit_log WHERE action = $1 AND target_id = $2',
    [action, id],
  );
  return rows[0]!.n;
}

async function outboxCount(email: string): Promise<number> {
  const { rows } = await portal.services.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM outbox WHERE kind = 'email' AND lower(recipient) = lower($1) AND payload->>'mail_kind' = 'invitation'`,
    [email],
  );
  return rows[0]!.n;
}

describe('PUT /api/invitations/{id}/resend, many at once', () => {
  it('ten concurrent resends of an expired invitation make it pending once and send one e-mail, whose link works', async () => {
    const email = 'expired-burst@example.com';
    const id = await invited(email);
    await portal.services.db.query("UPDATE invitations SET expires_at = now() - interval '1 minute' WHERE id = $1", [id]);
    expect((await portal.client().get(`/api/invitations/${id}`)).body.invitation_state).toBe('EXPIRED');

    const answers = await burstOfResends(id);
    for (const res of answers) expect(res.status, res.text).toBeLessThan(500);
    // the request that renewed the invitation answers 204; the others were part of the same sending (204, nothing sent again)
    expect(answers.map((r) => r.status)).toEqual(Array(BURST).fill(204));

    expect(await settledMailCount(email)).toBe(2);
    expect(await outboxCount(email)).toBe(2);
    expect(await auditCount('invitation.resend', id)).toBe(1);
    // the one e-mail carries the code the invitation has now
    const read = await portal.client().get(`/api/invitations/${id}?code=${encodeURIComponent(lastCode(email))}`);
    expect(read.status).toBe(200);
    expect(read.body.invitation_state).toBe('PENDING');
  });

  it('ten concurrent resends of a pending invitation send one e-mail; a resend after the burst is over sends again', async () => {
    const email = 'pending-burst@example.com';
    const id = await invited(email);

    const answers = await burstOfResends(id);
    expect(answers.map((r) => r.status)).toEqual(Array(BURST).fill(204));
    expect(await settledMailCount(email)).toBe(2);
    expect(await auditCount('invitation.resend', id)).toBe(1);
    const code = lastCode(email);
    expect((await portal.client().get(`/api/invitations/${id}?code=${encodeURIComponent(code)}`)).status).toBe(200);
    // one more right after it is still the same sending: 204, nothing sent, the link mailed keeps working
    expect((await f.userMgrA.client.put(`/api/invitations/${id}/resend`)).status).toBe(204);
    expect(await settledMailCount(email)).toBe(2);
    expect((await portal.client().get(`/api/invitations/${id}?code=${encodeURIComponent(code)}`)).status).toBe(200);

    // a deliberate "send again" later (the last sending moved a minute back) is sent, with a new code
    await portal.services.db.query("UPDATE invitations SET last_sent_at = last_sent_at - interval '1 minute' WHERE id = $1", [id]);
    expect((await f.userMgrA.client.put(`/api/invitations/${id}/resend`)).status).toBe(204);
    expect(await settledMailCount(email)).toBe(3);
    expect(lastCode(email)).not.toBe(code);
    expect((await portal.client().get(`/api/invitations/${id}?code=${encodeURIComponent(code)}`)).status).toBe(404);
    expect(await auditCount('invitation.resend', id)).toBe(2);
  });

  it('a burst of resends and revokes: revoked, or resent once and then revoked; never a 5xx', async () => {
    const email = 'mixed-burst@example.com';
    const id = await invited(email);
    await portal.services.db.query("UPDATE invitations SET expires_at = now() - interval '1 minute' WHERE id = $1", [id]);

    const calls = Array.from({ length: BURST }, (_, i) => (i % 2 === 0 ? 'resend' : 'revoke'));
    const answers = await Promise.all(calls.map((call) => f.userMgrA.client.put(`/api/invitations/${id}/${call}`)));
    for (const res of answers) expect([204, 409], res.text).toContain(res.status);
    expect(answers.filter((r, i) => r.status === 204 && calls[i] === 'revoke')).toHaveLength(1);
    expect(await settledMailCount(email)).toBeLessThanOrEqual(2);
    expect(await auditCount('invitation.resend', id)).toBeLessThanOrEqual(1);
    expect(await auditCount('invitation.revoke', id)).toBe(1);
    const { rows } = await portal.services.db.query<{ state: string }>('SELECT state FROM invitations WHERE id = $1', [id]);
    expect(rows[0]!.state).toBe('REVOKED');
  });
});
