import { decodeJwt } from 'jose';
import * as oidcClient from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACR_MULTI_FACTOR, ACR_SINGLE_FACTOR, toRights } from '@partner-portal/contracts';
import { hashPassword } from '../../src/password-hashing.js';
import { enrolTotp, passwordSteps, totpCode } from '../factors/support.js';
import { mailedResetLink, resetPassword } from '../identity/support.js';
import { codeFlow, DCR_TOKEN, discover, registerClient } from '../oidc/support.js';
import {
  buildFixtureWithLoyaltyManager,
  createMember,
  createOrg,
  rights,
  type ActorRef,
  type Fixture,
  type Org,
} from '../organizations/fixtures.js';
import type { HttpClient } from '../support/http.js';
import { startLogoutReceiver, type LogoutReceiver } from '../support/logout-receiver.js';
import { NO_LOGIN_LIMITS, startPortal, type TestPortal } from '../support/portal.js';

/**
 * Credential changes end what clients hold (docs/security.md): a password change, "sign out
 * everywhere", a password reset, a second-factor requirement and rights taken away each revoke the
 * refresh and access tokens and grants of the account's clients (a real relying party's refresh is
 * refused, the access token is refused at userinfo and introspects inactive) and send back-channel
 * logout to a real receiver, after the change has committed, in the same transaction as the change.
 */
let portal: TestPortal;
let f: Fixture;
let receiver: LogoutReceiver;
let config: oidcClient.Configuration;
const redirect = 'http://127.0.0.1:8126/callback';
const PASSWORD = 'Tr1cky-Horse-Battery';

beforeAll(async () => {
  portal = await startPortal({ DCR_INITIAL_ACCESS_TOKEN: DCR_TOKEN, ...NO_LOGIN_LIMITS });
  f = await buildFixtureWithLoyaltyManager(portal);
  receiver = await startLogoutReceiver();
  // a confidential client (it may introspect) that registered for back-channel logout with the session id
  const client = await registerClient(portal, {
    redirect_uris: [redirect],
    token_endpoint_auth_method: 'client_secret_basic',
    application_type: 'web',
    backchannel_logout_uri: `${receiver.url}/backchannel`,
    backchannel_logout_session_required: true,
  });
  config = await discover(portal, client.client_id as string, client.client_secret as string);
});
afterAll(async () => {
  await receiver?.close();
  await portal?.close();
});

/** What a client holds for one browser's sign-in: its tokens, and the provider session's id (sid). */
interface Held {
  browser: HttpClient;
  accessToken: string;
  refreshToken: string;
  sid: string;
  acr: string;
}

/** The browser, signed in at the portal, signs in at the client too (a code flow with a refresh token). */
async function signInAtClient(browser: HttpClient): Promise<Held> {
  const tokens = await codeFlow(config, browser, redirect);
  const claims = tokens.claims()!;
  expect(tokens.refresh_token).toBeTruthy();
  expect(claims.sid).toBeTruthy();
  return {
    browser,
    accessToken: tokens.access_token,
    refreshToken: tokens.refresh_token!,
    sid: claims.sid as string,
    acr: claims.acr as string,
  };
}

/** A member with a password, in an organization. */
async function memberWithPassword(org: Org, label: string): Promise<ActorRef> {
  const member = await createMember(
    portal,
    org,
    label,
    rights((r) => (r.loyalty.user_access = true)),
  );
  await portal.services.db.query('UPDATE users SET password_hash = $2 WHERE id = $1', [member.userId, await hashPassword(PASSWORD)]);
  return member;
}

/** The refresh grant's answer: the new refresh token, or the error the provider answered. */
async function refresh(held: Held): Promise<{ ok: true } | { ok: false; error: string }> {
  try {
    const tokens = await oidcClient.refreshTokenGrant(config, held.refreshToken);
    held.refreshToken = tokens.refresh_token!;
    held.accessToken = tokens.access_token;
    return { ok: true };
  } catch (err) {
    return { ok: false, error: (err as { error?: string }).error ?? String(err) };
  }
}

const userinfoStatus = async (held: Held) =>
  (await fetch(`${portal.url}/connect/userinfo`, { headers: { authorization: `Bearer ${held.accessToken}` } })).status;

const introspectsActive = async (held: Held) => (await oidcClient.tokenIntrospection(config, held.accessToken)).active;

/**
 * The sessions (sid) of an account that were sent back-channel logout. Each change writes its
 * logouts to the outbox in its transaction; once the outbox is settled they were sent (and answered
 * by the receiver), and a logout not among them was never written.
 */
const loggedOutSids = async (userId: string) => {
  await portal.outboxSettled();
  return receiver.tokens
    .map((t) => decodeJwt(t))
    .filter((c) => c.sub === userId)
    .map((c) => c.sid as string);
};

async function rowsOf(userId: string): Promise<{ payloads: number; consents: number }> {
  const { rows } = await portal.services.db.query<{ payloads: number; consents: number }>(
    `SELECT (SELECT count(*)::int FROM oidc_payloads WHERE payload ? 'accountId' AND payload->>'accountId' = $1::text) AS payloads,
            (SELECT count(*)::int FROM identity_consents WHERE user_id = $1::uuid) AS consents`,
    [userId],
  );
  return rows[0]!;
}

/** Everything the client held for this sign-in stopped working, and the client was told. */
async function expectEnded(held: Held, userId: string): Promise<void> {
  expect(await refresh(held)).toEqual({ ok: false, error: 'invalid_grant' });
  expect(await userinfoStatus(held)).toBe(401);
  expect(await introspectsActive(held)).toBe(false);
  expect(await loggedOutSids(userId)).toContain(held.sid);
}

async function expectWorking(held: Held): Promise<void> {
  expect(await userinfoStatus(held)).toBe(200);
  expect(await introspectsActive(held)).toBe(true);
  expect(await refresh(held)).toEqual({ ok: true });
  expect(await userinfoStatus(held)).toBe(200);
}

describe('POST /api/identity/change-password', () => {
  it("revokes every client's tokens, grants and remembered consents, with back-channel logout; this browser stays signed in to the portal", async () => {
    const member = await memberWithPassword(f.tree.north, 'changer');
    const here = await signInAtClient(member.client);
    const elsewhere = await signInAtClient(await portal.sessionFor(member.userId));
    await expectWorking(here);
    expect((await rowsOf(member.userId)).consents).toBe(1);

    const res = await member.client.post('/api/identity/change-password', {
      current_password: PASSWORD,
      new_password: 'New-Horse-Stable-9',
      confirm_password: 'New-Horse-Stable-9',
    });
    expect(res.status, res.text).toBe(204);

    await expectEnded(here, member.userId);
    await expectEnded(elsewhere, member.userId);
    expect(await rowsOf(member.userId)).toEqual({ payloads: 0, consents: 0 });
    // the portal session of this browser stays; the other browser's ended
    expect((await member.client.get('/api/identity/user-info')).status).toBe(200);
    expect((await elsewhere.browser.get('/api/identity/user-info')).status).toBe(401);
    // and the client signs this browser in again without a password (a new grant)
    const again = await signInAtClient(member.client);
    await expectWorking(again);
  });
});

describe('POST /api/identity/sessions/end-others', () => {
  it("ends the other browsers' client grants and tokens, with back-channel logout; this browser's session and its grant keep working", async () => {
    const member = await memberWithPassword(f.tree.north, 'everywhere');
    const here = await signInAtClient(member.client);
    const others = [
      await signInAtClient(await portal.sessionFor(member.userId)),
      await signInAtClient(await portal.sessionFor(member.userId)),
    ];
    expect(new Set([here.sid, ...others.map((o) => o.sid)]).size).toBe(3);
    // the three sign-ins share one grant (the remembered consent reuses it): only this browser's tokens of it may stay
    const grants = await portal.services.db.query(
      `SELECT DISTINCT grant_id FROM oidc_payloads WHERE model = 'RefreshToken' AND payload->>'accountId' = $1`,
      [member.userId],
    );
    expect(grants.rowCount).toBe(1);

    const res = await member.client.post('/api/identity/sessions/end-others');
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ ended: 2 });

    for (const other of others) {
      await expectEnded(other, member.userId);
      expect((await other.browser.get('/api/identity/user-info')).status).toBe(401);
    }
    expect(await loggedOutSids(member.userId)).not.toContain(here.sid);
    await expectWorking(here);
    expect((await member.client.get('/api/identity/user-info')).status).toBe(200);
    // the other browsers' sign-ins at the client are gone from the database too
    const { rows } = await portal.services.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM oidc_payloads WHERE payload->>'accountId' = $1 AND payload->>'sessionUid' IS NOT NULL
         AND payload->>'sessionUid' <> (SELECT payload->>'uid' FROM oidc_payloads WHERE model = 'Session' AND id = $2)`,
      [member.userId, member.client.cookies.get('_session')],
    );
    expect(rows[0]!.n).toBe(0);
  });
});

describe('PUT /api/identity/reset-password', () => {
  it('revokes the tokens and sends back-channel logout to the clients', async () => {
    const member = await memberWithPassword(f.tree.north, 'resetter');
    const held = await signInAtClient(member.client);
    const { code } = await mailedResetLink(portal, member.email);
    const reset = await resetPassword(portal, member.userId, code, 'Fresh-Meadow-42');
    expect(reset.status, reset.text).toBe(200);
    await expectEnded(held, member.userId);
    expect(await rowsOf(member.userId)).toEqual({ payloads: 0, consents: 0 });
    expect((await member.client.get('/api/identity/user-info')).status).toBe(401);
  });
});

describe('PUT /api/organizations/{id}/second-factor-policy', () => {
  it('ends the single-factor grants of the members below it, with back-channel logout; a multi-factor grant and members elsewhere keep theirs', async () => {
    const org = await createOrg(portal, f.tree.a, 'Policy Farm');
    const single = await memberWithPassword(org, 'single');
    const singleHeld = await signInAtClient(single.client);
    expect(singleHeld.acr).toBe(ACR_SINGLE_FACTOR);

    // a member who signs in with a password and an authenticator app
    const multi = await memberWithPassword(org, 'multi');
    const enrolling = portal.client();
    await passwordSteps(enrolling, multi.email, PASSWORD);
    const { secret } = await enrolTotp(enrolling);
    const browser = portal.client();
    expect((await passwordSteps(browser, multi.email, PASSWORD)).next_step).toBe('second_factor');
    const second = await browser.post('/api/identity/second-factor', { code: totpCode(secret, 1) });
    expect(second.status, second.text).toBe(200);
    const multiHeld = await signInAtClient(browser);
    expect(multiHeld.acr).toBe(ACR_MULTI_FACTOR);

    const outside = await memberWithPassword(f.tree.south, 'outside');
    const outsideHeld = await signInAtClient(outside.client);

    const orgMgrA = await portal.sessionFor(f.orgMgrA.userId);
    const set = await orgMgrA.put(`/api/organizations/${org.id}/second-factor-policy`, { required: true });
    expect(set.status, set.text).toBe(200);

    await expectEnded(singleHeld, single.userId);
    await expectWorking(multiHeld);
    expect(await loggedOutSids(multi.userId)).toEqual([]);
    await expectWorking(outsideHeld);
    expect(await loggedOutSids(outside.userId)).toEqual([]);
  });
});

describe('PUT /api/members/rights/{memberId}', () => {
  const rightsOf = async (memberId: string) =>
    toRights(
      (await portal.services.db.query<{ rights: unknown }>('SELECT rights FROM memberships WHERE id = $1', [memberId])).rows[0]!.rights,
    );
  const audited = async (memberId: string) =>
    (await portal.services.db.query(`SELECT 1 FROM audit_log WHERE action = 'member.rights.update' AND target_id = $1`, [memberId]))
      .rowCount;

  it('takes a right away and ends access in one transaction: when the revocation fails, the rights stay as they were', async () => {
    const member = await memberWithPassword(f.tree.north, 'reduced');
    const held = await signInAtClient(member.client);
    // the database refuses to delete this account's provider rows, as a failure between the two steps would
    await portal.services.db.query(
      `CREATE FUNCTION test_refuse_revocation() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN RAISE EXCEPTION 'revocation refused by the test'; END $$`,
    );
    await portal.services.db.query(
      `CREATE TRIGGER test_refuse_revocation BEFORE DELETE ON oidc_payloads FOR EACH ROW
       WHEN (OLD.payload->>'accountId' = '${member.userId}') EXECUTE FUNCTION test_refuse_revocation()`,
    );
    try {
      const refused = await f.userMgrA.client.put(`/api/members/rights/${member.memberId}`, { rights: {} });
      expect(refused.status).toBe(500);
      expect((await rightsOf(member.memberId)).loyalty.user_access).toBe(true);
      expect(await audited(member.memberId)).toBe(0);
    } finally {
      await portal.services.db.query('DROP TRIGGER test_refuse_revocation ON oidc_payloads');
      await portal.services.db.query('DROP FUNCTION test_refuse_revocation()');
    }
    await expectWorking(held);

    const res = await f.userMgrA.client.put(`/api/members/rights/${member.memberId}`, { rights: {} });
    expect(res.status, res.text).toBe(204);
    expect((await rightsOf(member.memberId)).loyalty.user_access).toBe(false);
    expect(await audited(member.memberId)).toBe(1);
    await expectEnded(held, member.userId);
    expect((await member.client.get('/api/identity/user-info')).status).toBe(401);
  });

  it('rights only added leave the tokens alone', async () => {
    const member = await memberWithPassword(f.tree.north, 'added');
    const held = await signInAtClient(member.client);
    const res = await f.userMgrA.client.put(`/api/members/rights/${member.memberId}`, {
      rights: { loyalty: { user_access: true, user_request_manager: true } },
    });
    expect(res.status, res.text).toBe(204);
    await expectWorking(held);
    expect(await loggedOutSids(member.userId)).toEqual([]);
  });
});
