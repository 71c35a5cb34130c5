import { randomBytes } from 'node:crypto';
import { buildEndSessionUrl } from 'openid-client';
import { emptyRights } from '@partner-portal/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DCR_TOKEN, discover, followUntil, LOGGED_OUT, redeemCode, REDIRECT, registerClient, startAuthorization } from '../oidc/support.js';
import type { HttpClient } from '../support/http.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, NO_LOGIN_LIMITS, startPortal, type TestPortal } from '../support/portal.js';
import { buildWorld, USER_PASSWORD, type World } from '../security/support/world.js';

/**
 * Every call of the specification's list of calls, made as a client built on the specification
 * alone makes it: exactly the specification's fields in the body (no field the portal adds),
 * parameters named in parentheses in the query string, the anti-forgery header on /api. Each
 * succeeds when its values are valid.
 */
let portal: TestPortal;
let world: World;
let admin: HttpClient;

beforeAll(async () => {
  portal = await startPortal({ DCR_INITIAL_ACCESS_TOKEN: DCR_TOKEN, ...NO_LOGIN_LIMITS });
  world = await buildWorld(portal);
  admin = await portal.sessionFor(portal.adminUserId);
});
afterAll(() => portal?.close());

/** An authorization of a registered client, stopped at the portal's login page: its ReturnUrl, the client and the start. */
async function loginInteraction(browser: HttpClient, scope = 'openid email profile') {
  const client = await registerClient(portal, { post_logout_redirect_uris: [LOGGED_OUT] });
  const config = await discover(portal, client.client_id);
  const start = await startAuthorization(config, REDIRECT, { scope });
  const loginPage = await followUntil(browser, start.url.toString(), `${portal.url}/login`);
  return { returnUrl: new URL(loginPage).searchParams.get('ReturnUrl')!, config, start };
}

/** The administrator's password step of the interaction, with exactly LoginRequest's fields. */
const adminLogin = (browser: HttpClient, returnUrl: string) =>
  browser.post('/api/identity/login', {
    email: ADMIN_EMAIL,
    password: ADMIN_PASSWORD,
    remember: false,
    return_url: returnUrl,
    return_path: null,
  });

async function errorId(): Promise<string> {
  return portal.app.oidc.errors.create({
    error: 'invalid_request',
    error_description: 'Something was missing',
    request_id: 'req-1',
    client_id: null,
    redirect_uri: null,
    response_mode: null,
    ui_locales: null,
    display_mode: null,
  });
}

describe('identity calls', () => {
  it('GET /api/identity/context (returnUrl)', async () => {
    const browser = portal.client();
    const { returnUrl } = await loginInteraction(browser);
    const res = await browser.get(`/api/identity/context?returnUrl=${encodeURIComponent(returnUrl)}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['client', 'idp', 'login_hint', 'scopes', 'tenant']);
    expect(res.body.scopes).toEqual(expect.arrayContaining(['openid', 'email']));
  });

  it('POST /api/identity/email-login with EmailLoginRequest', async () => {
    const browser = portal.client();
    const { returnUrl } = await loginInteraction(browser);
    const res = await browser.post('/api/identity/email-login', {
      email: world.users.member.email,
      invitation_login: false,
      return_url: returnUrl,
      return_path: '/',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ error: null, valid_return_url: returnUrl, external_login: null });
  });

  it('POST /api/identity/login with LoginRequest', async () => {
    const browser = portal.client();
    const res = await browser.post('/api/identity/login', {
      email: world.users.member.email,
      password: USER_PASSWORD,
      remember: false,
      return_url: null,
      return_path: '/profile',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ error: null, valid_return_url: '/profile', external_login: null });
    expect((await browser.get('/api/identity/user-info')).status).toBe(200);
  });

  it('POST /api/identity/consent with ConsentRequest', async () => {
    const browser = portal.client();
    const { returnUrl } = await loginInteraction(browser, 'openid email');
    await portal.services.db.query('DELETE FROM identity_consents');
    const login = await adminLogin(browser, returnUrl);
    expect(login.status).toBe(200);
    const finished = await browser.get(login.body.valid_return_url);
    const resumed = await browser.get(new URL(finished.headers.get('location')!, portal.url).toString());
    const consentUrl = new URL(resumed.headers.get('location')!, portal.url).toString();
    const res = await browser.post('/api/identity/consent', { deny: false, remember: true, return_url: consentUrl });
    expect(res.status).toBe(200);
    expect(res.body.valid_return_url).toMatch(/\/connect\/authorize\//);
  });

  it.each(['/api/identity/error', '/api/identity/login-error'])('GET %s (errorId)', async (path) => {
    const id = await errorId();
    const res = await portal.client().get(`${path}?errorId=${encodeURIComponent(id)}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ error: 'invalid_request', error_description: 'Something was missing', request_id: 'req-1' });
  });

  it('POST /api/identity/logout (logoutId) returns the client’s post_logout_redirect_uri', async () => {
    const browser = portal.client();
    const { returnUrl, config, start } = await loginInteraction(browser, 'openid email profile organization rights');
    const login = await adminLogin(browser, returnUrl);
    const callback = await followUntil(browser, login.body.valid_return_url, REDIRECT);
    const tokens = await redeemCode(config, start, callback);
    const endSession = buildEndSessionUrl(config, { id_token_hint: tokens.id_token!, post_logout_redirect_uri: LOGGED_OUT });
    const logoutPage = await followUntil(browser, endSession.toString(), `${portal.url}/logout`);
    const logoutId = new URL(logoutPage).searchParams.get('logoutId')!;
    // exactly the specification's call: the parameter in the query, no body
    const res = await browser.request('POST', `/api/identity/logout?logoutId=${encodeURIComponent(logoutId)}`);
    expect(res.status).toBe(200);
    expect(res.body.post_logout_redirect_uri).toBe(`${portal.url}/connect/logout/confirm?logoutId=${encodeURIComponent(logoutId)}`);
    expect((await browser.get('/api/identity/user-info')).status).toBe(401);
  });

  it('GET /api/identity/user-info', async () => {
    const res = await admin.get('/api/identity/user-info');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(
      expect.arrayContaining([
        'email',
        'firstName',
        'lastName',
        'fullName',
        'languageCode',
        'organizationId',
        'organizationName',
        'organizationPath',
        'userManager',
        'organizationManager',
        'externalIdentityProvider',
        'isDeveloper',
        'manageUsersOrOrganizations',
      ]),
    );
  });

  it('POST /api/identity/change-password with ChangePasswordRequest', async () => {
    const member = await world.fresh.member();
    const client = await portal.sessionFor(member.userId);
    const res = await client.post('/api/identity/change-password', {
      current_password: USER_PASSWORD,
      new_password: 'Brand-New-Pass-77',
      confirm_password: 'Brand-New-Pass-77',
    });
    expect(res.status).toBe(204);
  });

  it('PUT /api/identity/update-profile with UpdateProfileRequest', async () => {
    const member = await world.fresh.member();
    const client = await portal.sessionFor(member.userId);
    const res = await client.put('/api/identity/update-profile', { first_name: 'Anna', last_name: 'Jansen', language_code: 'nl' });
    expect(res.status).toBe(204);
    expect((await client.get('/api/identity/user-info')).body).toMatchObject({ firstName: 'Anna', lastName: 'Jansen', languageCode: 'nl' });
  });

  it('POST /api/identity/forgot-password with ForgotPasswordRequest', async () => {
    const member = await world.fresh.member();
    const res = await portal.client().post('/api/identity/forgot-password', { email_address: member.email });
    expect(res.status).toBe(204);
    await portal.smtp.waitFor(member.email);
  });

  it('POST /api/identity/validate-reset-token with ValidateTokenRequest', async () => {
    const member = await world.fresh.member();
    const token = await world.fresh.resetToken(member.userId);
    const res = await portal.client().post('/api/identity/validate-reset-token', { user_id: member.userId, token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ is_valid: true, reset_token: token });
  });

  it('PUT /api/identity/reset-password with ResetPasswordRequest', async () => {
    const member = await world.fresh.member();
    const token = await world.fresh.resetToken(member.userId);
    const res = await portal.client().put('/api/identity/reset-password', {
      user_id: member.userId,
      token,
      password: 'Reset-Meadow-42!',
      confirm_password: 'Reset-Meadow-42!',
    });
    expect(res.status).toBe(200);
  });
});

describe('invitation calls', () => {
  it('GET /api/invitations/{invitationId}', async () => {
    const invitation = await world.fresh.invitation();
    const res = await portal.client().get(`/api/invitations/${invitation.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ invitation_id: invitation.id, email_address: invitation.email, invitation_state: 'PENDING' });
  });

  it('GET /api/invitations/{invitationId}?code= (as the invitation page asks, with the code of its link)', async () => {
    const invitation = await world.fresh.invitation();
    const res = await portal.client().get(`/api/invitations/${invitation.id}?code=${encodeURIComponent(invitation.code)}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ invitation_id: invitation.id, email_address: invitation.email, invitation_state: 'PENDING' });
  });

  it.each(['resend', 'revoke'])('PUT /api/invitations/{invitationId}/%s', async (action) => {
    const invitation = await world.fresh.invitation();
    const res = await admin.put(`/api/invitations/${invitation.id}/${action}`);
    expect(res.status).toBe(204);
  });

  it('PUT /api/invitations/{invitationId}/accept with AcceptInvitationRequest (no agreement field)', async () => {
    const invitation = await world.fresh.invitation();
    const res = await portal.client().put(`/api/invitations/${invitation.id}/accept`, {
      invitation_code: invitation.code,
      email_address: invitation.email,
      first_name: 'Nina',
      last_name: 'de Vries',
      language_code: 'nl',
      password: 'Green-Pasture-81!',
      password_confirmation: 'Green-Pasture-81!',
      opt_in_for_newsletter: false,
    });
    expect(res.status).toBe(204);
    // acceptance is the consent: its time is recorded
    const { rows } = await portal.services.db.query<{ terms_accepted_at: Date | null }>(
      'SELECT terms_accepted_at FROM users WHERE lower(email) = lower($1)',
      [invitation.email],
    );
    expect(rows[0]!.terms_accepted_at).toBeInstanceOf(Date);
    const login = await portal.client().post('/api/identity/login', {
      email: invitation.email,
      password: 'Green-Pasture-81!',
      remember: false,
      return_url: null,
      return_path: null,
    });
    expect(login.status).toBe(200);
  });

  it('PUT /api/invitations/{invitationId}/accept for an external account: password fields null', async () => {
    const invitation = await world.fresh.invitation();
    await portal.services.db.query('UPDATE invitations SET is_external_identity_provider = true WHERE id = $1', [invitation.id]);
    const res = await portal.client().put(`/api/invitations/${invitation.id}/accept`, {
      invitation_code: invitation.code,
      email_address: invitation.email,
      first_name: 'Ext',
      last_name: 'Ernal',
      language_code: 'de',
      password: null,
      password_confirmation: null,
      opt_in_for_newsletter: true,
    });
    expect(res.status).toBe(204);
  });
});

describe('member calls', () => {
  it('GET /api/members/export (output)', async () => {
    const res = await admin.get('/api/members/export?output=csv');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
  });

  it('GET /api/members/rights/{memberId}', async () => {
    const member = await world.fresh.member();
    const res = await admin.get(`/api/members/rights/${member.membershipId}`);
    expect(res.status).toBe(200);
    expect(res.body.rights.partner_portal).toBeDefined();
  });

  it('PUT /api/members/rights/{memberId} with ChangeRightsRequest', async () => {
    const member = await world.fresh.member();
    const rights = emptyRights();
    rights.partner_portal.user_user_manager = true;
    const res = await admin.put(`/api/members/rights/${member.membershipId}`, { rights });
    expect(res.status).toBe(204);
  });
});

describe('organization calls', () => {
  it('GET /api/organizations/{organizationId}', async () => {
    const res = await admin.get(`/api/organizations/${world.north.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: world.north.id, parent_id: world.dealerA.id, name: world.north.name });
  });

  it('DELETE /api/organizations/{organizationId}', async () => {
    const leaf = await world.fresh.organization();
    expect((await admin.delete(`/api/organizations/${leaf.id}`)).status).toBe(204);
  });

  it('GET /api/organizations/tree', async () => {
    const res = await admin.get('/api/organizations/tree');
    expect(res.status).toBe(200);
    expect(JSON.stringify(res.body)).toContain(world.north.id);
  });

  it('POST /api/organizations with CreateOrganizationRequest', async () => {
    const res = await admin.post('/api/organizations', {
      parent_organization_id: world.north.id,
      name: `Spec ${randomBytes(3).toString('hex')}`,
      client_ids: ['partner-portal'],
      can_create_sub_organization: false,
    });
    expect(res.status).toBe(201);
  });

  it('POST /api/organizations/{organizationId}/invitations with InvitationRequest (rights left out)', async () => {
    const res = await admin.post(`/api/organizations/${world.north.id}/invitations`, {
      email_address: `spec-${randomBytes(3).toString('hex')}@example.com`,
      language_code: 'fr',
    });
    expect(res.status).toBeLessThan(300);
    expect(res.body.organizationId ?? res.body.organization_id).toBe(world.north.id);
  });

  it('DELETE /api/organizations/{organizationId}/members/{memberId}', async () => {
    const member = await world.fresh.member();
    expect((await admin.delete(`/api/organizations/${world.north.id}/members/${member.membershipId}`)).status).toBe(204);
  });

  it('PATCH /api/organizations/{organizationId}/apps with ChangeOrganizationAppsRequest', async () => {
    const leaf = await world.fresh.organization();
    expect((await admin.patch(`/api/organizations/${leaf.id}/apps`, { client_ids: ['partner-portal'] })).status).toBe(204);
  });

  it('PATCH /api/organizations/{organizationId}/can-create-sub-organizations (canCreateSubOrganizations)', async () => {
    const leaf = await world.fresh.organization();
    expect(
      (await admin.request('PATCH', `/api/organizations/${leaf.id}/can-create-sub-organizations?canCreateSubOrganizations=false`)).status,
    ).toBe(204);
  });
});

describe('portal and other calls', () => {
  it.each(['/api/portal', '/api/portal/notifications', '/api/portal/application/features', '/api/portal/profit-calculator'])(
    'GET %s',
    async (path) => {
      expect((await admin.get(path)).status).toBe(200);
    },
  );

  it('GET /api/developer/organization-export', async () => {
    const res = await admin.get('/api/developer/organization-export');
    expect(res.status).toBe(200);
  });

  it('POST /connect/dcr', async () => {
    const client = await registerClient(portal);
    expect(client.client_id).toBeTruthy();
  });

  it('GET /health', async () => {
    const res = await portal.client().get('/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });
});

describe('external login calls (browser navigations)', () => {
  let external: TestPortal;
  beforeAll(async () => {
    // an upstream provider that cannot be reached: the calls still take the specification's parameters
    external = await startPortal({ EXTERNAL_IDP_ISSUER: 'http://127.0.0.1:9/', EXTERNAL_IDP_CLIENT_ID: 'portal' });
  });
  afterAll(() => external?.close());

  it('GET /api/identity/challenge-external-login (returnUrl, invitationLogin, scheme, callback)', async () => {
    const res = await external
      .client()
      .get('/api/identity/challenge-external-login?returnUrl=%2F&invitationLogin=true&scheme=External&callback=%2F', { csrf: false });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toMatch(/^\/login\?loginError=/);
  });

  it('GET /api/identity/login-external-callback (returnUrl, invitationLogin, remoteError)', async () => {
    const res = await external
      .client()
      .get('/api/identity/login-external-callback?returnUrl=%2F&invitationLogin=false&remoteError=access_denied', { csrf: false });
    expect(res.status).toBe(303);
    const errorId = new URL(res.headers.get('location')!, external.url).searchParams.get('loginError')!;
    const error = await external.client().get(`/api/identity/login-error?errorId=${encodeURIComponent(errorId)}`);
    expect(error.status).toBe(200);
  });
});
