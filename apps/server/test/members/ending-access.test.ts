import { decodeJwt } from 'jose';
import * as oidcClient from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeFlow, discover } from '../oidc/support.js';
import { startLogoutReceiver, type LogoutReceiver } from '../support/logout-receiver.js';
import { startPortal, type TestPortal } from '../support/portal.js';
import { until } from '../support/wait.js';
import { buildFixtureWithLoyaltyManager, createMember, rights, type ActorRef, type Fixture, type Org } from '../organizations/fixtures.js';

/**
 * Ending a member's access: bulk removal (all or none, audited, the rules of removing one), a
 * userManager's "sign out everywhere", removal of one member, and rights taken away. Each ends the
 * portal sessions, revokes the refresh tokens (a real relying party's refresh fails) and sends
 * back-channel logout (a real receiver gets the logout token).
 */
let portal: TestPortal;
let f: Fixture;
let receiver: LogoutReceiver;
let config: oidcClient.Configuration;
const redirect = 'http://127.0.0.1:8125/callback';

beforeAll(async () => {
  // back-channel logouts a relying party did not take are tried again after 0.1 s (the webhooks' schedule)
  portal = await startPortal({ WEBHOOK_RETRY_BASE_SECONDS: '0.1' });
  f = await buildFixtureWithLoyaltyManager(portal);
  receiver = await startLogoutReceiver();
  await portal.services.db.query(`UPDATE apps SET oidc_metadata = $1 WHERE client_id = 'loyalty-app'`, [
    JSON.stringify({
      client_secret: 'loyalty-secret-loyalty-secret-456',
      client_name: 'Loyalty',
      redirect_uris: [redirect],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
      backchannel_logout_uri: `${receiver.url}/backchannel`,
    }),
  ]);
  config = await discover(portal, 'loyalty-app', 'loyalty-secret-loyalty-secret-456');
});
afterAll(async () => {
  await receiver?.close();
  await portal?.close();
});

const loyaltyUser = () => rights((r) => (r.loyalty.user_access = true));

interface SignedIn {
  member: ActorRef;
  refreshToken: string;
}

/** The member signed in at the portal and at the loyalty app (a code flow with a refresh token). */
async function signedInMember(org: Org, label: string): Promise<SignedIn> {
  const member = await createMember(portal, org, label, loyaltyUser());
  const tokens = await codeFlow(config, member.client, redirect);
  expect(tokens.refresh_token).toBeTruthy();
  return { member, refreshToken: tokens.refresh_token! };
}

async function refreshWorks(refreshToken: string): Promise<boolean> {
  try {
    await oidcClient.refreshTokenGrant(config, refreshToken);
    return true;
  } catch {
    return false;
  }
}

async function expectAccessEnded(s: SignedIn): Promise<void> {
  expect((await s.member.client.get('/api/identity/user-info')).status).toBe(401);
  expect(await refreshWorks(s.refreshToken)).toBe(false);
  expect(await receiver.waitForTokensOf(s.member.userId)).toBeGreaterThanOrEqual(1);
  const left = await portal.services.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM oidc_payloads WHERE payload->>'accountId' = $1`,
    [s.member.userId],
  );
  expect(left.rows[0]!.n).toBe(0);
}

const exists = async (memberId: string) =>
  (await portal.services.db.query('SELECT 1 FROM memberships WHERE id = $1', [memberId])).rowCount === 1;

describe('POST /api/members/bulk-remove', () => {
  it('removes the members across the subtree, audited, ending their sessions, tokens and client sessions', async () => {
    const one = await signedInMember(f.tree.north, 'bulk1');
    const two = await signedInMember(f.tree.farm, 'bulk2');
    expect(await refreshWorks(one.refreshToken)).toBe(true);
    const res = await f.userMgrA.client.post('/api/members/bulk-remove', { member_ids: [one.member.memberId, two.member.memberId] });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ removed: 2 });
    expect(await exists(one.member.memberId)).toBe(false);
    expect(await exists(two.member.memberId)).toBe(false);
    await expectAccessEnded(one);
    await expectAccessEnded(two);
    const audit = await portal.services.db.query<{ target_id: string; request_id: string; actor_user_id: string }>(
      `SELECT target_id, request_id, actor_user_id FROM audit_log WHERE action = 'member.remove' AND target_id = ANY($1)`,
      [[one.member.memberId, two.member.memberId]],
    );
    expect(audit.rows).toHaveLength(2);
    expect(audit.rows.every((r) => r.actor_user_id === f.userMgrA.userId && r.request_id === res.headers.get('x-request-id'))).toBe(true);
  });

  it('removes nobody when one member is refused, and names that member', async () => {
    const kept = await createMember(portal, f.tree.north, 'kept', rights());
    const sibling = await createMember(portal, f.tree.b, 'sibling', rights());
    const outside = await f.userMgrA.client.post('/api/members/bulk-remove', { member_ids: [kept.memberId, sibling.memberId] });
    expect(outside.status).toBe(403);
    expect(outside.body.params.member_id).toBe(sibling.memberId);
    const self = await f.userMgrA.client.post('/api/members/bulk-remove', { member_ids: [kept.memberId, f.userMgrA.memberId] });
    expect(self.status).toBe(409);
    expect(self.body.i18NTranslationKey).toBe('cannot_remove_yourself');
    expect(self.body.params.member_id).toBe(f.userMgrA.memberId);
    const unknown = await f.userMgrA.client.post('/api/members/bulk-remove', {
      member_ids: [kept.memberId, '00000000-0000-4000-8000-000000000000'],
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.i18NTranslationKey).toBe('unknown_member');
    expect(await exists(kept.memberId)).toBe(true);
    expect(await exists(sibling.memberId)).toBe(true);
    expect((await kept.client.get('/api/identity/user-info')).status).toBe(200);
  });

  it('is for userManagers only (403, 401) and checks the list (400: empty, duplicates, not ids, more than 200)', async () => {
    const target = await createMember(portal, f.tree.north, 'target', rights());
    expect((await f.orgMgrA.client.post('/api/members/bulk-remove', { member_ids: [target.memberId] })).status).toBe(403);
    expect((await f.plainA.client.post('/api/members/bulk-remove', { member_ids: [target.memberId] })).status).toBe(403);
    expect((await portal.client().post('/api/members/bulk-remove', { member_ids: [target.memberId] })).status).toBe(401);
    for (const body of [
      { member_ids: [] },
      { member_ids: [target.memberId, target.memberId] },
      { member_ids: ['x'] },
      {},
      { member_ids: Array.from({ length: 201 }, () => crypto.randomUUID()) },
    ]) {
      const res = await f.userMgrA.client.post('/api/members/bulk-remove', body);
      expect(res.status).toBe(400);
      expect(res.body.i18NTranslationKey).toBe('validation_failed');
    }
    expect(await exists(target.memberId)).toBe(true);
  });
});

describe('POST /api/members/{memberId}/sign-out', () => {
  it('signs a member out everywhere, audited (by a userManager holding the member’s rights)', async () => {
    const s = await signedInMember(f.tree.north, 'signout');
    const res = await f.userMgrA.client.post(`/api/members/${s.member.memberId}/sign-out`);
    expect(res.status, res.text).toBe(204);
    await expectAccessEnded(s);
    expect(await exists(s.member.memberId)).toBe(true);
    const audit = await portal.services.db.query(
      `SELECT 1 FROM audit_log WHERE action = 'member.sign_out' AND target_id = $1 AND actor_user_id = $2`,
      [s.member.memberId, f.userMgrA.userId],
    );
    expect(audit.rowCount).toBe(1);
  });

  it('is refused outside the subtree (403), to organizationManagers (403), for oneself (409), unknown members (404)', async () => {
    const s = await createMember(portal, f.tree.north, 'staysin', rights());
    expect((await f.mgrB.client.post(`/api/members/${s.memberId}/sign-out`)).status).toBe(403);
    expect((await f.orgMgrA.client.post(`/api/members/${s.memberId}/sign-out`)).status).toBe(403);
    expect((await f.userMgrA.client.post(`/api/members/${f.userMgrA.memberId}/sign-out`)).status).toBe(409);
    expect((await f.userMgrA.client.post('/api/members/00000000-0000-4000-8000-000000000000/sign-out')).status).toBe(404);
    expect((await s.client.get('/api/identity/user-info')).status).toBe(200);
  });
});

describe('removing one member, and taking rights away, end their access at once', () => {
  it('DELETE /api/organizations/{id}/members/{memberId} revokes the tokens and sends back-channel logout', async () => {
    const s = await signedInMember(f.tree.north, 'single');
    const res = await f.userMgrA.client.delete(`/api/organizations/${f.tree.north.id}/members/${s.member.memberId}`);
    expect(res.status).toBe(204);
    await expectAccessEnded(s);
  });

  it('a right taken away ends the sessions and tokens; rights only added leave them', async () => {
    const reduced = await signedInMember(f.tree.north, 'reduced');
    const res = await f.userMgrA.client.put(`/api/members/rights/${reduced.member.memberId}`, { rights: {} });
    expect(res.status).toBe(204);
    await expectAccessEnded(reduced);

    const added = await signedInMember(f.tree.north, 'added');
    const more = await f.userMgrA.client.put(`/api/members/rights/${added.member.memberId}`, {
      rights: { loyalty: { user_access: true, user_request_manager: true } },
    });
    expect(more.status).toBe(204);
    expect((await added.member.client.get('/api/identity/user-info')).status).toBe(200);
    expect(await refreshWorks(added.refreshToken)).toBe(true);
  });
});

describe('back-channel logout leaves through the outbox', () => {
  const received = (userId: string) => receiver.tokensFor(userId).length;
  const logoutRows = async (userId: string) =>
    (
      await portal.services.db.query<{ state: string; attempts: number }>(
        `SELECT state, attempts FROM outbox WHERE kind = 'backchannel_logout' AND payload->>'account_id' = $1`,
        [userId],
      )
    ).rows;

  it('is written with the change that ends the session, and sent once, when the relying party is up again', async () => {
    const s = await signedInMember(f.tree.north, 'rpdown');
    receiver.down = true;
    const refusedBefore = receiver.refused;
    try {
      const res = await f.userMgrA.client.post(`/api/members/${s.member.memberId}/sign-out`);
      expect(res.status, res.text).toBe(204);
      expect(await logoutRows(s.member.userId), 'written in the change’s transaction').toHaveLength(1);
      await until('a refused attempt', () => receiver.refused > refusedBefore);
      await until('the refusal written', async () => (await logoutRows(s.member.userId))[0]!.attempts >= 1);
      expect((await logoutRows(s.member.userId))[0]!.state).toBe('pending');
      expect(received(s.member.userId)).toBe(0);
    } finally {
      receiver.down = false;
    }
    await until('the logout token received', () => received(s.member.userId) === 1);
    await until('the logout delivered', async () => (await logoutRows(s.member.userId))[0]!.state === 'delivered');
    expect(received(s.member.userId), 'once').toBe(1);
    const [token] = receiver.tokensFor(s.member.userId);
    expect(decodeJwt(token!).events).toEqual({ 'http://schemas.openid.net/event/backchannel-logout': {} });
  });
});
