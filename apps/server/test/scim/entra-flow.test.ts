import * as oidcClient from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeFlow, discover } from '../oidc/support.js';
import { startLogoutReceiver, type LogoutReceiver } from '../support/logout-receiver.js';
import { NO_LOGIN_LIMITS, startPortal, type TestPortal } from '../support/portal.js';
import { login, signIn } from '../support/sign-in.js';
import { buildFixtureWithLoyaltyManager, type Fixture } from '../organizations/fixtures.js';
import {
  Directory,
  entraUser,
  expectScimError,
  LIST_RESPONSE,
  makeToken,
  ORGANIZATION_EXTENSION,
  patchOp,
  USER_SCHEMA,
} from './support.js';

/**
 * A directory provisions a person the way Microsoft Entra ID's provisioning service does: it looks
 * the person up by userName, creates them, reads them, deactivates them with the string "False",
 * reactivates them, changes their names and address with path filters, replaces them, and deletes
 * them. Deactivation and deletion end the person's access at once (portal session, refresh token,
 * back-channel logout), as a real relying party sees it; reactivation lets them sign in again.
 */
let portal: TestPortal;
let f: Fixture;
let receiver: LogoutReceiver;
let config: oidcClient.Configuration;
let entra: Directory;
const redirect = 'http://127.0.0.1:8126/callback';
const PASSWORD = 'Julia-Passw0rd!';

beforeAll(async () => {
  portal = await startPortal(NO_LOGIN_LIMITS);
  f = await buildFixtureWithLoyaltyManager(portal);
  receiver = await startLogoutReceiver();
  await portal.services.db.query(`UPDATE apps SET oidc_metadata = $1 WHERE client_id = 'loyalty-app'`, [
    JSON.stringify({
      client_secret: 'loyalty-secret-loyalty-secret-789',
      client_name: 'Loyalty',
      redirect_uris: [redirect],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
      backchannel_logout_uri: `${receiver.url}/backchannel`,
    }),
  ]);
  config = await discover(portal, 'loyalty-app', 'loyalty-secret-loyalty-secret-789');
  entra = new Directory(portal, (await makeToken(f.userMgrA.client, f.tree.a.id, 'Entra ID')).token);
});
afterAll(async () => {
  await receiver?.close();
  await portal?.close();
});

async function refreshWorks(refreshToken: string): Promise<boolean> {
  try {
    await oidcClient.refreshTokenGrant(config, refreshToken);
    return true;
  } catch {
    return false;
  }
}

/** Signed in at the portal and at the loyalty app: the browser and the app's refresh token. */
async function signedIn(email: string) {
  const browser = await signIn(portal.client(), { email, password: PASSWORD });
  const tokens = await codeFlow(config, browser, redirect);
  expect(tokens.refresh_token).toBeTruthy();
  return { browser, refreshToken: tokens.refresh_token! };
}

const auditOf = async (action: string, targetId: string) =>
  (
    await portal.services.db.query<{ actor_email: string; actor_name: string; actor_user_id: string | null }>(
      'SELECT actor_email, actor_name, actor_user_id FROM audit_log WHERE action = $1 AND target_id = $2 ORDER BY id',
      [action, targetId],
    )
  ).rows;

describe('a directory provisions a person as Entra ID does', () => {
  const email = `julia.weber.${Date.now()}@dealer-a.example`;
  const newEmail = email.replace('julia.weber', 'julia.smit');
  let id = '';
  let userId = '';

  it('looks the person up by userName: nobody yet (an empty list)', async () => {
    const res = await entra.findByUserName(email);
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/scim\+json/);
    expect(res.body).toEqual({ schemas: [LIST_RESPONSE], totalResults: 0, startIndex: 1, itemsPerPage: 0, Resources: [] });
  });

  it('creates them (201) in the token’s organization, invites them by e-mail, audited as the token', async () => {
    const res = await entra.post('/Users', entraUser(email));
    expect(res.status, res.text).toBe(201);
    id = res.body.id;
    expect(res.body).toMatchObject({
      schemas: expect.arrayContaining([USER_SCHEMA, ORGANIZATION_EXTENSION]),
      externalId: `ext-${email.split('@')[0]}`,
      userName: email,
      active: true,
      name: { givenName: 'Julia', familyName: 'Weber' },
      preferredLanguage: 'de',
      emails: [{ value: email, type: 'work', primary: true }],
      [ORGANIZATION_EXTENSION]: { organizationId: f.tree.a.id },
      meta: { resourceType: 'User', location: `${portal.url}/scim/v2/Users/${id}` },
    });
    expect(res.headers.get('location')).toBe(`${portal.url}/scim/v2/Users/${id}`);
    expect(res.headers.get('etag')).toBe(res.body.meta.version);
    // attributes the portal does not keep are accepted and not returned
    expect(res.body.phoneNumbers).toBeUndefined();

    const member = await portal.services.db.query<{ user_id: string; organization_id: string; password_hash: string | null }>(
      'SELECT m.user_id, m.organization_id, u.password_hash FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.id = $1',
      [id],
    );
    expect(member.rows[0]).toMatchObject({ organization_id: f.tree.a.id, password_hash: null });
    userId = member.rows[0]!.user_id;
    expect(await auditOf('member.provision', id)).toEqual([
      { actor_email: 'SCIM: Entra ID', actor_name: 'SCIM: Entra ID', actor_user_id: null },
    ]);

    // the invitation: in German, and accepting it gives the provisioned member their password
    const mail = await portal.smtp.waitFor(email);
    expect(mail.subject).toMatch(/eingeladen/);
    const link = new URL(mail.links.find((l) => l.includes('/invitation/'))!);
    const accepted = await portal.client().put(`/api/invitations/${link.pathname.split('/').pop()}/accept`, {
      invitation_code: link.searchParams.get('code'),
      first_name: 'Jules',
      last_name: 'W',
      language_code: 'de',
      password: PASSWORD,
      password_confirmation: PASSWORD,
      accept_agreement: true,
      opt_in_for_newsletter: false,
    });
    expect(accepted.status, accepted.text).toBe(204);
    // the same member, not a new account; the directory's names stay
    const after = await entra.get(`/Users/${id}`);
    expect(after.body.name).toMatchObject({ givenName: 'Julia', familyName: 'Weber' });
    expect((await portal.services.db.query('SELECT 1 FROM users WHERE lower(email) = lower($1)', [email])).rowCount).toBe(1);
  });

  it('reads them by id and finds them by userName (in any letter case)', async () => {
    const one = await entra.get(`/Users/${id}`);
    expect(one.status).toBe(200);
    expect(one.body.userName).toBe(email);
    const found = await entra.findByUserName(email.toUpperCase());
    expect(found.body.totalResults).toBe(1);
    expect(found.body.Resources[0].id).toBe(id);
    const byExternalId = await entra.get(`/Users?filter=${encodeURIComponent(`externalId eq "ext-${email.split('@')[0]}"`)}`);
    expect(byExternalId.body.Resources.map((u: { id: string }) => u.id)).toEqual([id]);
  });

  it('PATCH active "False" ends the access at once; the member cannot sign in; "True" lets them in again', async () => {
    // rights for the loyalty app, given by the userManager
    const granted = await f.userMgrA.client.put(`/api/members/rights/${id}`, { rights: { loyalty: { user_access: true } } });
    expect(granted.status, granted.text).toBe(204);
    const session = await signedIn(email);
    expect(await refreshWorks(session.refreshToken)).toBe(true);

    const off = await entra.patch(`/Users/${id}`, patchOp({ op: 'Replace', path: 'active', value: 'False' }));
    expect(off.status, off.text).toBe(200);
    expect(off.body.active).toBe(false);
    expect((await session.browser.get('/api/identity/user-info')).status).toBe(401);
    expect(await refreshWorks(session.refreshToken)).toBe(false);
    expect(await receiver.waitForTokensOf(userId, 1)).toBeGreaterThanOrEqual(1);
    const refused = await login(portal.client(), { email, password: PASSWORD });
    expect(refused.status).toBe(400);
    expect(refused.body.i18NTranslationKey).toBe('invalid_login');
    expect(await auditOf('member.deactivate', id)).toHaveLength(1);

    const on = await entra.patch(`/Users/${id}`, patchOp({ op: 'replace', path: 'active', value: 'True' }));
    expect(on.status, on.text).toBe(200);
    expect(on.body.active).toBe(true);
    const again = await signedIn(email);
    expect((await again.browser.get('/api/identity/user-info')).status).toBe(200);
    expect(await refreshWorks(again.refreshToken)).toBe(true);
    expect(await auditOf('member.reactivate', id)).toHaveLength(1);
  });

  it('PATCH names and the address with path filters; the new address ends the sessions', async () => {
    const session = await signedIn(email);
    const res = await entra.patch(
      `/Users/${id}`,
      patchOp(
        { op: 'Replace', path: 'emails[type eq "work"].value', value: newEmail },
        { op: 'Replace', path: 'userName', value: newEmail },
        { op: 'Replace', path: 'name.givenName', value: 'Julie' },
        { op: 'Add', path: 'name.familyName', value: 'Smit' },
        { op: 'Replace', path: 'phoneNumbers[type eq "work"].value', value: '+31 20 555 0199' },
        { op: 'Add', path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department', value: 'Service' },
      ),
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      userName: newEmail,
      name: { givenName: 'Julie', familyName: 'Smit' },
      emails: [{ value: newEmail, type: 'work', primary: true }],
    });
    expect((await session.browser.get('/api/identity/user-info')).status).toBe(401);
    const renamed = await signIn(portal.client(), { email: newEmail, password: PASSWORD });
    const me = await renamed.get('/api/identity/user-info');
    expect(me.body).toMatchObject({ email: newEmail, firstName: 'Julie', lastName: 'Smit' });
    const audit = await portal.services.db.query<{ before: unknown; after: unknown }>(
      `SELECT before, after FROM audit_log WHERE action = 'member.update' AND target_id = $1`,
      [id],
    );
    expect(audit.rows[0]!.after).toEqual({ email_address: newEmail, first_name: 'Julie', last_name: 'Smit' });
  });

  it('PUT replaces the person (language, externalId, names); with a stale If-Match it is refused (412)', async () => {
    const current = await entra.get(`/Users/${id}`);
    const body = {
      schemas: [USER_SCHEMA],
      userName: newEmail,
      externalId: 'entra-object-id-1',
      name: { givenName: 'Julia', familyName: 'Smit-Weber' },
      emails: [{ value: newEmail, type: 'work', primary: true }],
      preferredLanguage: 'fr-BE',
      active: true,
    };
    const res = await entra.put(`/Users/${id}`, body, { headers: { 'if-match': current.headers.get('etag')! } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ externalId: 'entra-object-id-1', preferredLanguage: 'fr', name: { familyName: 'Smit-Weber' } });
    expect(res.body.meta.version).not.toBe(current.body.meta.version);
    const stale = await entra.put(
      `/Users/${id}`,
      { ...body, preferredLanguage: 'nl' },
      { headers: { 'if-match': current.headers.get('etag')! } },
    );
    expectScimError(stale, 412);
    expect((await entra.get(`/Users/${id}`)).body.preferredLanguage).toBe('fr');
  });

  it('DELETE removes the member and ends their access (204, then 404)', async () => {
    const session = await signedIn(newEmail);
    const before = receiver.tokensFor(userId).length;
    const res = await entra.delete(`/Users/${id}`);
    expect(res.status, res.text).toBe(204);
    expect((await session.browser.get('/api/identity/user-info')).status).toBe(401);
    expect(await refreshWorks(session.refreshToken)).toBe(false);
    expect(await receiver.waitForTokensOf(userId, before + 1)).toBeGreaterThan(before);
    expectScimError(await entra.get(`/Users/${id}`), 404);
    expectScimError(await entra.delete(`/Users/${id}`), 404);
    expect((await entra.findByUserName(newEmail)).body.totalResults).toBe(0);
    expect(await auditOf('member.remove', id)).toEqual([
      { actor_email: 'SCIM: Entra ID', actor_name: 'SCIM: Entra ID', actor_user_id: null },
    ]);
  });
});
