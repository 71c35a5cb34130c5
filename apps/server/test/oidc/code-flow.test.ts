import * as oidcClient from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startPortal, type TestPortal } from '../support/portal.js';
import {
  codeFlow,
  DCR_TOKEN,
  discover,
  followUntil,
  formInputs,
  LOGGED_OUT,
  loginThroughPortal,
  redeemCode,
  REDIRECT,
  registerClient,
  startAuthorization,
} from './support.js';

/**
 * A real relying party (openid-client 6) against the running portal: discovery, authorization
 * code with PKCE through the portal's two-step login, tokens, userinfo, refresh with rotation,
 * and RP-initiated logout through the portal's /logout page.
 */
let portal: TestPortal;
let clientId: string;
let config: oidcClient.Configuration;

beforeAll(async () => {
  portal = await startPortal({ DCR_INITIAL_ACCESS_TOKEN: DCR_TOKEN });
  const registered = await registerClient(portal);
  clientId = registered.client_id;
  config = await discover(portal, clientId);
});
afterAll(() => portal?.close());

describe('discovery', () => {
  it('publishes the issuer (PUBLIC_URL), the /connect endpoints, PKCE S256 and the JWKS', async () => {
    const res = await portal.client().get('/.well-known/openid-configuration');
    expect(res.status).toBe(200);
    const d = res.body;
    expect(d.issuer).toBe(portal.url);
    expect(d.authorization_endpoint).toBe(`${portal.url}/connect/authorize`);
    expect(d.token_endpoint).toBe(`${portal.url}/connect/token`);
    expect(d.userinfo_endpoint).toBe(`${portal.url}/connect/userinfo`);
    expect(d.end_session_endpoint).toBe(`${portal.url}/connect/endsession`);
    expect(d.revocation_endpoint).toBe(`${portal.url}/connect/revocation`);
    expect(d.introspection_endpoint).toBe(`${portal.url}/connect/introspect`);
    expect(d.registration_endpoint).toBe(`${portal.url}/connect/dcr`);
    expect(d.jwks_uri).toBe(`${portal.url}/connect/jwks`);
    expect(d.code_challenge_methods_supported).toEqual(['S256']);
    expect(d.backchannel_logout_supported).toBe(true);
    expect(d.scopes_supported).toEqual(expect.arrayContaining(['openid', 'email', 'profile', 'organization', 'rights', 'offline_access']));
    const jwks = await portal.client().get('/connect/jwks');
    expect(jwks.body.keys.length).toBeGreaterThanOrEqual(1);
    expect(jwks.body.keys[0]).not.toHaveProperty('d');
  });

  it('keeps the signing keys encrypted in the database', async () => {
    const { rows } = await portal.services.db.query<{ kid: string; encrypted: string }>('SELECT kid, encrypted FROM oidc_signing_keys');
    expect(rows.length).toBeGreaterThanOrEqual(1);
    expect(rows[0]!.encrypted.split('.')).toHaveLength(5); // compact JWE
    expect(rows[0]!.encrypted).not.toContain('"d"');
  });
});

describe('authorization code with PKCE', () => {
  let tokens: oidcClient.TokenEndpointResponse & oidcClient.TokenEndpointResponseHelpers;
  const browser = () => browserClient;
  let browserClient: ReturnType<TestPortal['client']>;

  it('sends the browser to /login?ReturnUrl=…, logs in with the two steps and returns a code', async () => {
    browserClient = portal.client();
    const start = await startAuthorization(config, REDIRECT);
    const { callback, context } = await loginThroughPortal(browser(), start.url, REDIRECT, {
      email: ADMIN_EMAIL,
      password: ADMIN_PASSWORD,
    });
    expect(context.client).toEqual({ client_id: clientId, client_name: 'Test relying party' });
    expect(context.scopes).toEqual(expect.arrayContaining(['openid', 'email']));
    expect(browser().cookies.get('pp_session')).toBeTruthy();
    tokens = await redeemCode(config, start, callback);
    expect(tokens.access_token).toBeTruthy();
    expect(tokens.refresh_token).toBeTruthy();
    expect(tokens.id_token).toBeTruthy();
    const claims = tokens.claims()!;
    expect(claims.iss).toBe(portal.url);
    expect(claims.sub).toBe(portal.adminUserId);
    expect(claims.email).toBe(ADMIN_EMAIL);
    expect(claims.given_name).toBe('Portal');
    expect(claims.family_name).toBe('Administrator');
    expect(claims.organization_id).toBe(portal.rootOrganizationId);
  });

  it('answers userinfo with the claims of the scopes, rights included', async () => {
    const info = await oidcClient.fetchUserInfo(config, tokens.access_token, portal.adminUserId);
    expect(info).toMatchObject({
      sub: portal.adminUserId,
      email: ADMIN_EMAIL,
      email_verified: true,
      name: 'Portal Administrator',
      given_name: 'Portal',
      family_name: 'Administrator',
      locale: 'en',
      organization_id: portal.rootOrganizationId,
      organization_name: 'Nedap',
      organization_path: 'nedap',
    });
    // a client outside the catalogue gets no app section, only the global flag
    expect(info.rights).toEqual({ global_full_permission: false });
  });

  it('the portal session of the login works for the portal API too (one sign-in)', async () => {
    const me = await browser().get('/api/identity/user-info');
    expect(me.status).toBe(200);
    expect(me.body.email).toBe(ADMIN_EMAIL);
  });

  it('a second authorization in the same browser needs no login (single sign-on)', async () => {
    const again = await codeFlow(config, browser(), REDIRECT);
    expect(again.claims()!.sub).toBe(portal.adminUserId);
  });

  it('refreshes with rotation: the new refresh token works; reusing the old one revokes the grant', async () => {
    const refreshed = await oidcClient.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.access_token).toBeTruthy();
    expect(refreshed.refresh_token).toBeTruthy();
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    const info = await oidcClient.fetchUserInfo(config, refreshed.access_token, portal.adminUserId);
    expect(info.sub).toBe(portal.adminUserId);
    const next = await oidcClient.refreshTokenGrant(config, refreshed.refresh_token!);
    expect(next.refresh_token).not.toBe(refreshed.refresh_token);
    // replaying a rotated refresh token is refused and ends the whole grant (token theft detection)
    await expect(oidcClient.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    await expect(oidcClient.refreshTokenGrant(config, next.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('revokes an access token', async () => {
    tokens = await codeFlow(config, browser(), REDIRECT);
    expect((await oidcClient.fetchUserInfo(config, tokens.access_token, portal.adminUserId)).sub).toBe(portal.adminUserId);
    await oidcClient.tokenRevocation(config, tokens.access_token);
    await expect(oidcClient.fetchUserInfo(config, tokens.access_token, portal.adminUserId)).rejects.toThrow();
  });

  it('logs out through end_session: the portal /logout page, then the client post_logout_redirect_uri', async () => {
    const idToken = tokens.id_token!;
    const endSession = oidcClient.buildEndSessionUrl(config, {
      id_token_hint: idToken,
      post_logout_redirect_uri: LOGGED_OUT,
      state: 'bye',
    });
    const logoutPage = await followUntil(browser(), endSession.toString(), `${portal.url}/logout`);
    const logoutId = new URL(logoutPage).searchParams.get('logoutId');
    expect(logoutId).toBeTruthy();
    const res = await browser().post('/api/identity/logout', { logoutId });
    expect(res.status).toBe(200);
    expect(res.body.post_logout_redirect_uri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/connect\/logout\/confirm\?logoutId=/);
    expect(res.body.iframe_url).toBeNull();
    expect(browser().cookies.has('pp_session')).toBe(false);
    // the page at post_logout_redirect_uri posts the provider's confirmation (a browser runs its script)
    const page = await browser().get(res.body.post_logout_redirect_uri);
    expect(page.status).toBe(200);
    const form = formInputs(page.text);
    expect(form.action).toBe(`${portal.url}/connect/endsession/confirm`);
    const confirm = await browser().request('POST', form.action, {
      raw: new URLSearchParams(form.inputs).toString(),
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(confirm.status).toBe(303);
    expect(confirm.headers.get('location')).toBe(`${LOGGED_OUT}?state=bye`);
    // logged out everywhere: the portal API, the refresh token, and a new authorization asks for login again
    expect((await browser().get('/api/identity/user-info')).status).toBe(401);
    await expect(oidcClient.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toThrow();
    const start = await startAuthorization(config, REDIRECT);
    const next = await followUntil(browser(), start.url.toString(), `${portal.url}/login`);
    expect(next).toContain('ReturnUrl=');
  });
});

describe('the portal session is the identity session', () => {
  it('a session made directly (sessionFor) signs the user in at the provider without a login page', async () => {
    const browser = await portal.sessionFor(portal.adminUserId);
    const tokens = await codeFlow(config, browser, REDIRECT);
    expect(tokens.claims()!.sub).toBe(portal.adminUserId);
  });

  it('after a portal logout without logoutId, the provider asks for a login again', async () => {
    const browser = await portal.sessionFor(portal.adminUserId);
    const start = await startAuthorization(config, REDIRECT);
    await followUntil(browser, start.url.toString(), REDIRECT);
    expect(browser.cookies.has('_session')).toBe(true);
    const res = await browser.post('/api/identity/logout', {});
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ iframe_url: null, post_logout_redirect_uri: null });
    expect(browser.cookies.has('pp_session')).toBe(false);
    expect(browser.cookies.has('_session')).toBe(false);
    const again = await startAuthorization(config, REDIRECT);
    const next = await followUntil(browser, again.url.toString(), `${portal.url}/login`);
    expect(next).toContain('ReturnUrl=');
  });

  it('prompt=none without a portal session answers login_required to the client', async () => {
    const start = await startAuthorization(config, REDIRECT, { prompt: 'none' });
    const callback = await followUntil(portal.client(), start.url.toString(), REDIRECT);
    expect(new URL(callback).searchParams.get('error')).toBe('login_required');
  });

  it('when the portal session changes user, the provider follows it', async () => {
    const browser = await portal.sessionFor(portal.adminUserId);
    const first = await startAuthorization(config, REDIRECT);
    await followUntil(browser, first.url.toString(), REDIRECT);
    const { rows } = await portal.services.db.query<{ id: string }>(
      `INSERT INTO users (email, first_name, last_name) VALUES ('second.user@example.com', 'Second', 'User') RETURNING id`,
    );
    browser.cookies.set('pp_session', await portal.services.sessions.create(rows[0]!.id, false));
    const second = await startAuthorization(config, REDIRECT);
    // the provider ends the previous user's session first: its page posts the logout confirmation
    let callback: string;
    try {
      callback = await followUntil(browser, second.url.toString(), REDIRECT);
    } catch (err) {
      const resumeUrl = /stopped at (\S+):/.exec((err as Error).message)![1]!;
      const page = await browser.get(resumeUrl);
      const form = formInputs(
        page.text.replace(/<input type="hidden" name="([^"]+)" value="([^"]*)"\/>/g, '<input type="hidden" name="$1" value="$2"/>'),
      );
      const action = /<form method="post" action="([^"]+)"/.exec(page.text)![1]!;
      const confirm = await browser.request('POST', action, {
        raw: new URLSearchParams(form.inputs).toString(),
        contentType: 'application/x-www-form-urlencoded',
      });
      expect(confirm.status).toBe(303);
      callback = await followUntil(browser, new URL(confirm.headers.get('location')!, portal.url).toString(), REDIRECT);
    }
    const tokens = await redeemCode(config, second, callback);
    expect(tokens.claims()!.sub).toBe(rows[0]!.id);
  });

  it('an interaction opened in another browser is refused (no login fixation)', async () => {
    const attacker = portal.client();
    const start = await startAuthorization(config, REDIRECT);
    const loginPage = await followUntil(attacker, start.url.toString(), `${portal.url}/login`);
    const returnUrl = new URL(loginPage).searchParams.get('ReturnUrl')!;
    const victim = await portal.sessionFor(portal.adminUserId);
    const res = await victim.get(returnUrl);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toMatch(/^\/error\?errorId=/);
  });
});

describe('authorization errors', () => {
  it('an unknown client goes to /error?errorId=… and the ErrorMessage is readable', async () => {
    const browser = portal.client();
    const res = await browser.get(
      `/connect/authorize?client_id=nope&response_type=code&scope=openid&redirect_uri=${encodeURIComponent(REDIRECT)}`,
    );
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get('location')!);
    expect(location.pathname).toBe('/error');
    const errorId = location.searchParams.get('errorId')!;
    const message = await browser.get(`/api/identity/error?errorId=${encodeURIComponent(errorId)}`);
    expect(message.status).toBe(200);
    expect(message.body).toMatchObject({ error: 'invalid_client', client_id: 'nope' });
    expect(Object.keys(message.body).sort()).toEqual(
      [
        'activity_id',
        'client_id',
        'display_mode',
        'error',
        'error_description',
        'redirect_uri',
        'request_id',
        'response_mode',
        'ui_locales',
      ].sort(),
    );
  });

  it('an unknown errorId is a 404 problem', async () => {
    const res = await portal.client().get('/api/identity/error?errorId=unknown');
    expect(res.status).toBe(404);
    expect(res.body.i18NTranslationKey).toBe('unknown_error_id');
    const res2 = await portal.client().get('/api/identity/login-error?errorId=unknown');
    expect(res2.status).toBe(404);
  });

  it('a public client without PKCE is refused', async () => {
    const url = oidcClient.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: 'openid', state: 'x' });
    const callback = await followUntil(portal.client(), url.toString(), REDIRECT);
    expect(new URL(callback).searchParams.get('error')).toBe('invalid_request');
  });
});

describe('POST /api/identity/consent', () => {
  /** Log in through the API and stop at the consent interaction the provider asks for next. */
  async function consentInteraction(): Promise<{
    browser: ReturnType<TestPortal['client']>;
    consentUrl: string;
    start: Awaited<ReturnType<typeof startAuthorization>>;
  }> {
    const browser = portal.client();
    const start = await startAuthorization(config, REDIRECT, { scope: 'openid email' });
    const loginPage = await followUntil(browser, start.url.toString(), `${portal.url}/login`);
    const returnUrl = new URL(loginPage).searchParams.get('ReturnUrl')!;
    const login = await browser.post('/api/identity/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD, return_url: returnUrl });
    // the login interaction completes; the provider then asks for consent in a new interaction
    const finished = await browser.get(login.body.valid_return_url);
    const resumed = await browser.get(new URL(finished.headers.get('location')!, portal.url).toString());
    const consentUrl = new URL(resumed.headers.get('location')!, portal.url).toString();
    expect(consentUrl).toMatch(/\/connect\/interaction\//);
    expect(consentUrl).not.toBe(returnUrl);
    return { browser, consentUrl, start };
  }

  it('deny: the client receives access_denied', async () => {
    await portal.services.db.query('DELETE FROM identity_consents');
    const { browser, consentUrl } = await consentInteraction();
    const res = await browser.post('/api/identity/consent', { deny: true, return_url: consentUrl });
    expect(res.status).toBe(200);
    const callback = await followUntil(browser, res.body.valid_return_url, REDIRECT);
    expect(new URL(callback).searchParams.get('error')).toBe('access_denied');
  });

  it('grant with remember: a code is issued and the consent is remembered for the client', async () => {
    await portal.services.db.query('DELETE FROM identity_consents');
    const { browser, consentUrl, start } = await consentInteraction();
    const res = await browser.post('/api/identity/consent', { deny: false, remember: true, return_url: consentUrl });
    expect(res.status).toBe(200);
    const callback = await followUntil(browser, res.body.valid_return_url, REDIRECT);
    const tokens = await redeemCode(config, start, callback);
    expect(tokens.claims()!.sub).toBe(portal.adminUserId);
    const { rows } = await portal.services.db.query<{ scopes: string }>(
      'SELECT scopes FROM identity_consents WHERE user_id = $1 AND client_id = $2',
      [portal.adminUserId, clientId],
    );
    expect(rows[0]!.scopes).toContain('email');
  });

  it('401 without a session, 400 for a return_url that is not an interaction', async () => {
    expect((await portal.client().post('/api/identity/consent', { return_url: `${portal.url}/connect/interaction/x` })).status).toBe(401);
    const client = await portal.sessionFor(portal.adminUserId);
    const res = await client.post('/api/identity/consent', { return_url: 'https://evil.example.com/' });
    expect(res.status).toBe(400);
    const gone = await client.post('/api/identity/consent', { return_url: `${portal.url}/connect/interaction/gone` });
    expect(gone.status).toBe(409);
  });
});
