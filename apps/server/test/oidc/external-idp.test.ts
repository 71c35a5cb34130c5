import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDealerIdp, type DealerIdp } from '../support/dealer-idp.js';
import { HttpClient, type HttpResponse } from '../support/http.js';
import { startPortal, type TestPortal } from '../support/portal.js';
import { createUser } from '../identity/support.js';
import { DCR_TOKEN, discover, redeemCode, registerClient, startAuthorization } from './support.js';

/**
 * The external identity provider end to end: a second oidc-provider (test/support/dealer-idp.ts)
 * is the upstream IdP (EXTERNAL_IDP_*). The browser (one cookie jar per origin) goes e-mail step →
 * challenge → upstream login (its interaction posted with a test account) → callback → portal session.
 */
const UPSTREAM_ACCOUNTS = [
  { sub: 'up-invited', email: 'invited@partner.example', email_verified: true, given_name: 'Ingrid', family_name: 'Invited' },
  { sub: 'up-stranger', email: 'stranger@partner.example', email_verified: true, given_name: 'Sam', family_name: 'Stranger' },
  { sub: 'up-unverified', email: 'unverified@partner.example', email_verified: false, given_name: 'Uma', family_name: 'Unverified' },
  { sub: 'up-rp', email: 'rp.user@partner.example', email_verified: true, given_name: 'Rita', family_name: 'Relying' },
];

let portal: TestPortal;
let upstream: DealerIdp;
let upstreamUrl: string;

beforeAll(async () => {
  upstream = await startDealerIdp({ accounts: UPSTREAM_ACCOUNTS });
  upstreamUrl = upstream.issuer;
  portal = await startPortal({
    DCR_INITIAL_ACCESS_TOKEN: DCR_TOKEN,
    EXTERNAL_IDP_ISSUER: upstreamUrl,
    EXTERNAL_IDP_CLIENT_ID: 'partner-portal',
    EXTERNAL_IDP_CLIENT_SECRET: 'upstream-client-secret-0123456789',
    EXTERNAL_IDP_NAME: 'Partner AD',
    EXTERNAL_IDP_EMAIL_DOMAINS: 'partner.example',
    LOGIN_RATE_LIMIT_PER_ACCOUNT: '1000',
  });
  upstream.addClient({
    client_id: 'partner-portal',
    client_secret: 'upstream-client-secret-0123456789',
    redirect_uris: [`${portal.url}/api/identity/login-external-callback`],
  });
});
afterAll(async () => {
  await upstream?.close();
  await portal?.close();
});

/** A browser: one cookie jar per origin, X-CSRF only where the portal's API wants it. */
class Browser {
  readonly portal: HttpClient;
  readonly upstream: HttpClient;
  constructor() {
    this.portal = portal.client();
    this.upstream = new HttpClient(upstreamUrl);
  }
  jar(url: string): HttpClient {
    return url.startsWith(upstreamUrl) ? this.upstream : this.portal;
  }
  async get(url: string): Promise<HttpResponse> {
    const absolute = url.startsWith('http') ? url : `${portal.url}${url}`;
    return this.jar(absolute).get(absolute);
  }
  /** Follow redirects until a page answers (returned) or a URL starts with stopAt. */
  async follow(url: string, stopAt?: string): Promise<{ url: string; res?: HttpResponse }> {
    let next = url.startsWith('http') ? url : `${portal.url}${url}`;
    for (let i = 0; i < 15; i++) {
      // the portal's API navigations (challenge, callback) are always followed
      if (stopAt && next.startsWith(stopAt) && !next.startsWith(`${portal.url}/api/`)) return { url: next };
      const res = await this.get(next);
      const location = res.headers.get('location');
      if (res.status < 300 || res.status >= 400 || !location) return { url: next, res };
      next = new URL(location, next).toString();
    }
    throw new Error('too many redirects');
  }
  /** Log in at the upstream IdP: the interaction page answered, post the account, follow back. */
  async upstreamLogin(challengeUrl: string, account: string, stopAt: string): Promise<string> {
    const page = await this.follow(challengeUrl);
    expect(page.url.startsWith(`${upstreamUrl}/interaction/`), page.url).toBe(true);
    const posted = await this.upstream.request('POST', page.url, {
      raw: `account=${account}`,
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(posted.status).toBe(303);
    return (await this.follow(new URL(posted.headers.get('location')!, upstreamUrl).toString(), stopAt)).url;
  }
}

describe('external identity provider', () => {
  it('email-login points an address of the IdP domains to the challenge', async () => {
    const res = await portal.client().post('/api/identity/email-login', { email: 'anyone@partner.example', invitation_login: true });
    expect(res.status).toBe(200);
    const challenge = new URL(res.body.external_login);
    expect(`${challenge.origin}${challenge.pathname}`).toBe(`${portal.url}/api/identity/challenge-external-login`);
    expect(challenge.searchParams.get('invitationLogin')).toBe('true');
  });

  it('signs an invited external user in end to end and links the account on first login', async () => {
    const user = await createUser(portal, { email: 'invited@partner.example', password: null, externalIdp: 'external' });
    const browser = new Browser();
    const step1 = await browser.portal.post('/api/identity/email-login', { email: user.email });
    expect(step1.body.external_login).toContain('/api/identity/challenge-external-login');
    // the challenge sends the browser upstream with state, nonce and PKCE
    const challenge = await browser.get(step1.body.external_login);
    expect(challenge.status).toBe(303);
    const authorize = new URL(challenge.headers.get('location')!);
    expect(authorize.origin).toBe(upstreamUrl);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('state')).toBeTruthy();
    expect(authorize.searchParams.get('nonce')).toBeTruthy();
    expect(authorize.searchParams.get('redirect_uri')).toBe(`${portal.url}/api/identity/login-external-callback`);

    const landing = await browser.upstreamLogin(authorize.toString(), 'up-invited', `${portal.url}/`);
    expect(landing.startsWith(`${portal.url}/`)).toBe(true);
    expect(landing).not.toContain('loginError');
    const me = await browser.portal.get('/api/identity/user-info');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ email: 'invited@partner.example', externalIdentityProvider: 'external' });
    const { rows } = await portal.services.db.query<{ external_subject: string; last_sign_in_at: Date | null }>(
      'SELECT external_subject, last_sign_in_at FROM users WHERE id = $1',
      [user.id],
    );
    expect(rows[0]!.external_subject).toBe('up-invited');
    // an upstream sign-in is a sign-in: the members' lists show it
    expect(rows[0]!.last_sign_in_at).not.toBeNull();

    // a second login finds the account by its upstream subject
    const again = new Browser();
    const second = await again.upstreamLogin(`${portal.url}/api/identity/challenge-external-login`, 'up-invited', `${portal.url}/`);
    expect(second).not.toContain('loginError');
    expect((await again.portal.get('/api/identity/user-info')).body.email).toBe('invited@partner.example');
  });

  it('links a native account of an EXTERNAL_IDP_EMAIL_DOMAINS domain on its first upstream login', async () => {
    const native = await createUser(portal, { email: 'stranger@partner.example' });
    const browser = new Browser();
    const landing = await browser.upstreamLogin(`${portal.url}/api/identity/challenge-external-login`, 'up-stranger', `${portal.url}/`);
    expect(landing).not.toContain('loginError');
    expect((await browser.portal.get('/api/identity/user-info')).body).toMatchObject({
      email: native.email,
      externalIdentityProvider: 'external',
    });
    const { rows } = await portal.services.db.query<{ password_hash: string | null }>('SELECT password_hash FROM users WHERE id = $1', [
      native.id,
    ]);
    expect(rows[0]!.password_hash).toBeNull();
    await portal.services.db.query('DELETE FROM users WHERE id = $1', [native.id]);
  });

  it('refuses an upstream user without an invited account: /login?loginError=… with external_login_failed', async () => {
    const browser = new Browser();
    const landing = await browser.upstreamLogin(
      `${portal.url}/api/identity/challenge-external-login`,
      'up-stranger',
      `${portal.url}/login`,
    );
    const loginError = new URL(landing).searchParams.get('loginError')!;
    expect(loginError).toBeTruthy();
    const message = await browser.portal.get(`/api/identity/login-error?errorId=${encodeURIComponent(loginError)}`);
    expect(message.status).toBe(200);
    expect(message.body.error).toBe('external_login_failed');
    expect((await browser.portal.get('/api/identity/user-info')).status).toBe(401);
  });

  it('does not link an account by an unverified upstream e-mail', async () => {
    await createUser(portal, { email: 'unverified@partner.example', password: null, externalIdp: 'external' });
    const browser = new Browser();
    const landing = await browser.upstreamLogin(
      `${portal.url}/api/identity/challenge-external-login`,
      'up-unverified',
      `${portal.url}/login`,
    );
    expect(landing).toContain('loginError=');
  });

  it('refuses a callback without the state cookie of this browser', async () => {
    const res = await portal.client().get('/api/identity/login-external-callback?code=abc&state=def');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toMatch(/^\/login\?loginError=/);
  });

  it('answers an upstream error with the portal’s own error code only: the upstream text is logged, never shown', async () => {
    const browser = new Browser();
    const challenge = await browser.get('/api/identity/challenge-external-login');
    expect(challenge.status).toBe(303);
    const phishing = 'Call +31 555 0100 or visit https://evil.example/unlock to unlock your account';
    const res = await browser.portal.get(
      `/api/identity/login-external-callback?error=account_locked&error_description=${encodeURIComponent(phishing)}`,
    );
    expect(res.headers.get('location')).toMatch(/^\/login\?loginError=/);
    const id = new URL(res.headers.get('location')!, portal.url).searchParams.get('loginError')!;
    const message = await browser.portal.get(`/api/identity/login-error?errorId=${id}`);
    expect(message.status).toBe(200);
    expect(message.body).toMatchObject({ error: 'external_login_failed' });
    expect(message.text).not.toContain('evil.example');
    expect(message.text).not.toContain('account_locked');
  });

  it('completes a relying party code flow through the external login', async () => {
    await createUser(portal, { email: 'rp.user@partner.example', password: null, externalIdp: 'external' });
    const redirect = 'http://127.0.0.1:8125/callback';
    const registered = await registerClient(portal, { redirect_uris: [redirect] });
    const config = await discover(portal, registered.client_id);
    const start = await startAuthorization(config, redirect);
    const browser = new Browser();
    const loginPage = await browser.follow(start.url.toString(), `${portal.url}/login`);
    const returnUrl = new URL(loginPage.url).searchParams.get('ReturnUrl')!;
    const step1 = await browser.portal.post('/api/identity/email-login', { email: 'rp.user@partner.example', return_url: returnUrl });
    expect(step1.body.valid_return_url).toBe(returnUrl);
    const callback = await browser.upstreamLogin(step1.body.external_login, 'up-rp', redirect);
    const tokens = await redeemCode(config, start, callback);
    expect(tokens.claims()!.email).toBe('rp.user@partner.example');
  });

  it('external accounts cannot change or reset a password', async () => {
    const { rows } = await portal.services.db.query<{ id: string }>("SELECT id FROM users WHERE email = 'invited@partner.example'");
    const client = await portal.sessionFor(rows[0]!.id);
    const res = await client.post('/api/identity/change-password', {
      current_password: 'x',
      new_password: 'New-Horse-Stable-9',
      confirm_password: 'New-Horse-Stable-9',
    });
    expect(res.status).toBe(403);
    expect(
      (await portal.client().post('/api/identity/login', { email: 'invited@partner.example', password: 'Anything-123!' })).status,
    ).toBe(400);
  });
});
