import * as oidcClient from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpClient } from '../support/http.js';
import { startPortal, type TestPortal } from '../support/portal.js';
import { buildFixture, createMember, createOrg, type ActorRef, type Fixture, type Org } from '../organizations/fixtures.js';
import { DCR_TOKEN, codeFlow, discover, registerClient, REDIRECT } from '../oidc/support.js';
import { BearerClient, createAccount, tokenOf } from '../service-accounts/support.js';

/**
 * Support sessions (CONTRACT.md, "Support access"; docs/security.md, "Support sessions") on the
 * fixture's tree: root → Dealer A → North → Farm 1 (farmMgr, a German-speaking userManager of the
 * farm, and farmHand, who holds a right the supporter lacks), and Dealer B beside A. The supporter
 * is Dealer A's userManager (userMgrA); consent is given on Dealer A by its organizationManager.
 */
let portal: TestPortal;
let f: Fixture;
let farmMgr: ActorRef;
let farmHand: ActorRef;
let barnOrg: Org;

beforeAll(async () => {
  portal = await startPortal({ DCR_INITIAL_ACCESS_TOKEN: DCR_TOKEN });
  f = await buildFixture(portal);
  farmMgr = await createMember(portal, f.tree.farm, 'farmmgr', (r) => (r.partner_portal.user_user_manager = true), { language: 'de' });
  farmHand = await createMember(portal, f.tree.farm, 'farmhand', (r) => (r.media_library.user_access = true));
  barnOrg = await createOrg(portal, f.tree.farm, 'Hayloft');
});
afterAll(() => portal?.close());

const REASON = 'The farm manager cannot find the invitation list';
const ask = (by: HttpClient, member: ActorRef, body: Record<string, unknown> = { reason: REASON, minutes: 15 }) =>
  by.post(`/api/members/${member.memberId}/support-sessions`, body);
const setAccess = (by: HttpClient, org: Org, allowed: boolean) => by.put(`/api/organizations/${org.id}/support-access`, { allowed });

/** A browser of its own for the supporter (the support session replaces its session cookie). */
async function supporterBrowser(): Promise<HttpClient> {
  return portal.sessionFor(f.userMgrA.userId);
}

/** Make and start a support session as `member` in a new supporter browser. */
async function startSupport(member: ActorRef, minutes = 15): Promise<{ browser: HttpClient; id: string }> {
  const browser = await supporterBrowser();
  const made = await ask(browser, member, { reason: REASON, minutes });
  expect(made.status, made.text).toBe(201);
  const started = await browser.get(made.body.url as string);
  expect(started.status, started.text).toBe(303);
  expect(started.headers.get('location')).toBe('/');
  return { browser, id: made.body.id as string };
}

describe('support access', () => {
  it('is refused by default, then allowed by an organizationManager of an ancestor and inherited below', async () => {
    expect((await f.userMgrA.client.get(`/api/organizations/${f.tree.farm.id}/support-access`)).body).toEqual({
      allowed: false,
      effective: false,
      set_by: null,
      set_by_name: null,
    });
    const refused = await ask(f.userMgrA.client, farmMgr);
    expect(refused.status).toBe(403);
    expect(refused.body.i18NTranslationKey).toBe('support_access_not_allowed');

    // a userManager who is no organizationManager may not set it
    expect((await setAccess(f.userMgrA.client, f.tree.a, true)).status).toBe(403);
    expect((await setAccess(f.orgMgrA.client, f.tree.a, true)).status).toBe(204);
    const farm = await f.orgMgrA.client.get(`/api/organizations/${f.tree.farm.id}/support-access`);
    expect(farm.body).toEqual({ allowed: false, effective: true, set_by: f.tree.a.id, set_by_name: 'Dealer A' });
    // outside the manager's subtree: 403
    expect((await setAccess(f.orgMgrA.client, f.tree.b, true)).status).toBe(403);
  });

  it('is narrowed by a branch: allowing it below a branch that refuses has no effect', async () => {
    expect((await setAccess(f.mgrNorth.client, f.tree.north, false)).status).toBe(204);
    const refused = await ask(f.userMgrA.client, farmMgr);
    expect(refused.status).toBe(403);
    expect(refused.body.i18NTranslationKey).toBe('support_access_not_allowed');
    // stored, shown as overridden by North
    expect((await setAccess(f.mgrNorth.client, f.tree.farm, true)).status).toBe(204);
    expect((await f.mgrNorth.client.get(`/api/organizations/${f.tree.farm.id}/support-access`)).body).toEqual({
      allowed: true,
      effective: false,
      set_by: f.tree.north.id,
      set_by_name: 'North',
    });
    expect((await setAccess(f.mgrNorth.client, f.tree.north, true)).status).toBe(204);
    expect((await f.mgrNorth.client.get(`/api/organizations/${f.tree.farm.id}/support-access`)).body.effective).toBe(true);
  });
});

describe('who may start a support session', () => {
  it('is refused upward, sideways, in the same organization, with fewer rights, and for a member who manages the caller', async () => {
    const cases: [string, HttpClient, ActorRef, number, string][] = [
      ['upward', f.mgrNorth.client, f.plainA, 403, 'forbidden'],
      ['sideways', f.mgrB.client, farmMgr, 403, 'forbidden'],
      ['same organization', f.userMgrA.client, f.plainA, 403, 'forbidden'],
      ['fewer rights', f.userMgrA.client, farmHand, 403, 'cannot_manage_member_with_more_rights'],
      ['manages the caller', f.mgrNorth.client, f.userMgrA, 403, 'support_member_manages_you'],
      ['no userManager', f.plainA.client, farmMgr, 403, 'forbidden'],
    ];
    for (const [name, client, member, status, key] of cases) {
      const res = await ask(client, member);
      expect(res.status, name).toBe(status);
      expect(res.body.i18NTranslationKey, name).toBe(key);
    }
    const bad = await ask(f.userMgrA.client, farmMgr, { reason: 'short', minutes: 61 });
    expect(bad.status).toBe(400);
    const { rows } = await portal.services.db.query('SELECT 1 FROM support_sessions');
    expect(rows).toHaveLength(0);
  });

  it('is refused to a service account, also where its organization allows support', async () => {
    const account = await createAccount(f.fullA.client, f.tree.a.id, { name: 'Support robot', user_manager: true });
    const machine = new BearerClient(portal.url, await tokenOf(portal.url, account));
    const res = await machine.post(`/api/members/${farmMgr.memberId}/support-sessions`, { reason: REASON, minutes: 10 });
    expect(res.status).toBe(403);
    expect(res.body.i18NTranslationKey).toBe('service_account_not_allowed');
    expect((await machine.put(`/api/organizations/${f.tree.farm.id}/support-access`, { allowed: false })).status).toBe(403);
  });
});

describe('a support session', () => {
  let browser: HttpClient;
  let id: string;

  it('is made (201, audited) and started from its url in the caller’s browser, acting as the member', async () => {
    ({ browser, id } = await startSupport(farmMgr));
    const me = await browser.get('/api/identity/user-info');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      id: farmMgr.userId,
      email: farmMgr.email,
      supportSession: { id, supporterEmail: f.userMgrA.email, supporterName: 'usermgr Tester' },
    });
    // the url starts it once
    expect((await (await supporterBrowser()).get(`/api/support-sessions/${id}/start`)).status).toBe(404);
    // acting as the member: the member's own subtree, not the supporter's
    expect((await browser.get(`/api/organizations/${f.tree.farm.id}`)).status).toBe(200);
    expect((await browser.get(`/api/organizations/${f.tree.a.id}`)).status).toBe(403);
    const signOut = await browser.post(`/api/members/${f.farmer.memberId}/sign-out`);
    expect(signOut.status, signOut.text).toBe(204);
  });

  it('tells the member by e-mail, in their language', async () => {
    const mail = await portal.smtp.waitFor(farmMgr.email);
    expect(mail.subject).toBe('usermgr Tester ist für den Support als Sie im Partner Portal angemeldet');
    expect(mail.text).toContain(REASON);
    expect(mail.text).toContain(f.userMgrA.email);
  });

  it('refuses the member’s password, factors, sessions and credentials, and another support session', async () => {
    const refused: [string, string, unknown][] = [
      ['POST', '/api/identity/change-password', { current_password: 'x', new_password: 'y', confirm_password: 'y' }],
      ['POST', '/api/factors/totp', {}],
      ['POST', '/api/factors/recovery-codes', {}],
      ['POST', '/api/identity/sessions/end-others', {}],
      ['POST', `/api/organizations/${f.tree.farm.id}/webhooks`, { url: 'https://example.com/hook', events: ['*'] }],
      ['POST', `/api/organizations/${f.tree.farm.id}/service-accounts`, { name: 'x', user_manager: true }],
      ['POST', `/api/organizations/${f.tree.farm.id}/scim-tokens`, { name: 'x' }],
      ['POST', `/api/members/${f.farmer.memberId}/support-sessions`, { reason: REASON, minutes: 10 }],
    ];
    for (const [method, path, body] of refused) {
      const res = await browser.request(method, path, { body });
      expect(res.status, path).toBe(403);
      expect(res.body.i18NTranslationKey, path).toBe('not_during_support_session');
    }
  });

  it('is audited as the supporter acting as the member, in both organizations’ trails', async () => {
    const { rows } = await portal.services.db.query<{
      actor_kind: string;
      actor_id: string;
      actor_user_id: string;
      supporter_email: string;
    }>("SELECT actor_kind, actor_id, actor_user_id, supporter_email FROM audit_log WHERE action = 'member.sign_out'");
    expect(rows).toEqual([{ actor_kind: 'support', actor_id: id, actor_user_id: farmMgr.userId, supporter_email: f.userMgrA.email }]);
    for (const [reader, org] of [
      [f.mgrNorth.client, f.tree.farm],
      [f.orgMgrA.client, f.tree.a],
    ] as const) {
      const trail = await reader.get(`/api/audit?organizationId=${org.id}&action=member.sign_out`);
      expect(trail.status, trail.text).toBe(200);
      expect(trail.body.entries).toHaveLength(1);
      expect(trail.body.entries[0]).toMatchObject({
        actor_email: farmMgr.email,
        supported_by: { email: f.userMgrA.email, name: 'usermgr Tester' },
      });
    }
  });

  it('gives an application signing in during it an ID token with act and user-info with supportedBy', async () => {
    const client = await registerClient(portal);
    const config = await discover(portal, client.client_id as string);
    const tokens = await codeFlow(config, browser, REDIRECT);
    const claims = tokens.claims()!;
    expect(claims.sub).toBe(farmMgr.userId);
    expect(claims.act).toEqual({ sub: f.userMgrA.userId });
    const info = await oidcClient.fetchUserInfo(config, tokens.access_token, farmMgr.userId);
    expect(info.supportedBy).toEqual({ email: f.userMgrA.email, fullName: 'usermgr Tester' });
    // its access token (opaque) carries act too, as introspection shows it: kept with the token by the provider
    const { rows } = await portal.services.db.query<{ extra: unknown }>(
      "SELECT payload->'extra' AS extra FROM oidc_payloads WHERE model = 'AccessToken' AND payload->>'accountId' = $1",
      [farmMgr.userId],
    );
    expect(rows).toEqual([{ extra: { act: { sub: f.userMgrA.userId } } }]);
    // the member's own sign-in has neither
    const own = await codeFlow(config, await portal.sessionFor(farmMgr.userId), REDIRECT);
    expect(own.claims()!.act).toBeUndefined();
  });

  it('ends at DELETE: the browser is the supporter’s again; the member’s profile lists it', async () => {
    expect((await browser.delete(`/api/support-sessions/${id}`)).status).toBe(204);
    const me = await browser.get('/api/identity/user-info');
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(f.userMgrA.userId);
    expect(me.body.supportSession).toBeUndefined();
    const own = await farmMgr.client.get('/api/me/support-sessions');
    expect(own.status).toBe(200);
    expect(own.body.sessions[0]).toMatchObject({ id, supporter_email: f.userMgrA.email, reason: REASON, minutes: 15 });
    expect(own.body.sessions[0].started_at).not.toBeNull();
    expect(own.body.sessions[0].ended_at).not.toBeNull();
  });

  it('ends when its time runs out', async () => {
    const running = await startSupport(farmMgr, 5);
    expect((await running.browser.get('/api/identity/user-info')).body.id).toBe(farmMgr.userId);
    // the clock moved on: its time is over (test-only SQL, as clock.ts does for sign-in times)
    await portal.services.db.query("UPDATE sessions SET expires_at = now() - interval '1 second' WHERE support_session_id = $1", [
      running.id,
    ]);
    await expect.poll(async () => (await running.browser.get('/api/identity/user-info')).status).toBe(401);
    // the answer gave the browser back the supporter's own session
    const me = await running.browser.get('/api/identity/user-info');
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(f.userMgrA.userId);
  });

  it('ends when the supporter’s own session ends', async () => {
    const running = await startSupport(farmMgr);
    expect((await running.browser.get('/api/identity/user-info')).body.id).toBe(farmMgr.userId);
    const elsewhere = await supporterBrowser();
    expect((await elsewhere.post('/api/identity/sessions/end-others')).status).toBe(200);
    await expect.poll(async () => (await running.browser.get('/api/identity/user-info')).status).toBe(401);
  });

  it('is not made for a member below an organization the supporter cannot reach', async () => {
    const member = await createMember(portal, barnOrg, 'hayloft', () => undefined);
    const res = await ask(f.mgrB.client, member);
    expect(res.status).toBe(403);
  });
});
