import * as oidcClient from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpClient, HttpResponse } from '../support/http.js';
import { startPortal, type TestPortal } from '../support/portal.js';
import { codeFlow, DCR_TOKEN, discover, followUntil, formInputs, registerClient, startAuthorization } from './support.js';

/**
 * What third-party relying parties need of the provider's own pages and endpoints in a browser,
 * with NODE_ENV=production (where the portal's pages allow form targets on https only):
 * - the logout confirmation page (oidc/logout-pages.ts) and a response_mode=form_post answer
 *   (oidc/form-action.ts) let their form, and the provider's redirect after it, reach the
 *   requesting client's registered address, an http:// loopback one too, and nothing else;
 * - the token, userinfo and revocation endpoints answer a credentialed CORS request (keycloak-js's
 *   `credentials: 'include'`) from a public client's registered origin with that exact origin and
 *   Access-Control-Allow-Credentials: true (oidc/cors.ts), and refuse other origins as before.
 * docs/api.md, "OpenID Connect in browsers"; docs/security.md, "Other controls shown by the tests".
 */
let portal: TestPortal;

const SPA = 'http://localhost:4711';
const SPA_REDIRECT = `${SPA}/callback`;
const SPA_LOGGED_OUT = `${SPA}/`;
const V6 = 'http://[::1]:4712';
const OTHER_ORIGIN = 'http://localhost:4799';

let spa: oidcClient.Configuration;
let spaClientId: string;
let v6: oidcClient.Configuration;

beforeAll(async () => {
  portal = await startPortal({ NODE_ENV: 'production', DCR_INITIAL_ACCESS_TOKEN: DCR_TOKEN });
  const registered = await registerClient(portal, {
    client_name: 'Browser application',
    application_type: 'web',
    redirect_uris: [SPA_REDIRECT],
    post_logout_redirect_uris: [SPA_LOGGED_OUT],
  });
  spaClientId = registered.client_id;
  spa = await discover(portal, spaClientId);
  const loopback6 = await registerClient(portal, {
    client_name: 'Desktop application',
    redirect_uris: [`${V6}/callback`],
    post_logout_redirect_uris: [`${V6}/`],
  });
  v6 = await discover(portal, loopback6.client_id);
});
afterAll(() => portal?.close());

/** The directives of a Content-Security-Policy header, by name. */
function directives(csp: string | null): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const part of (csp ?? '').split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) map.set(name, values);
  }
  return map;
}

/** The policy without form-action and script-src (the two the provider's own pages change). */
function otherDirectives(csp: string | null): [string, string[]][] {
  return [...directives(csp)].filter(([name]) => name !== 'form-action' && name !== 'script-src');
}

/** The content security policy of the portal's pages (the login page's). */
async function pagePolicy(): Promise<string> {
  const res = await portal.client().get('/login', { headers: { accept: 'text/html' } });
  expect(res.status).toBe(200);
  return res.headers.get('content-security-policy')!;
}

/** A browser signed in at the portal and, through a code flow of the client, at the provider; and the client's tokens. */
async function signedIn(config: oidcClient.Configuration, redirectUri: string) {
  const browser = await portal.sessionFor(portal.adminUserId);
  const tokens = await codeFlow(config, browser, redirectUri);
  return { browser, tokens };
}

/** RP-initiated logout up to the confirmation page: end_session, the portal's /logout and its logout call. */
async function confirmationPage(
  config: oidcClient.Configuration,
  browser: HttpClient,
  idToken: string,
  postLogoutRedirectUri?: string,
): Promise<HttpResponse> {
  const endSession = oidcClient.buildEndSessionUrl(config, {
    id_token_hint: idToken,
    ...(postLogoutRedirectUri ? { post_logout_redirect_uri: postLogoutRedirectUri, state: 'bye' } : {}),
  });
  const logoutPage = await followUntil(browser, endSession.toString(), `${portal.url}/logout`);
  const logout = await browser.post('/api/identity/logout', { logoutId: new URL(logoutPage).searchParams.get('logoutId') });
  expect(logout.status).toBe(200);
  const page = await browser.get(logout.body.post_logout_redirect_uri);
  expect(page.status).toBe(200);
  return page;
}

/** Follow the browser's redirects from url to the first answer that is no redirect. */
async function lastAnswer(browser: HttpClient, url: string): Promise<HttpResponse> {
  let next = url;
  for (let i = 0; i < 10; i++) {
    const res = await browser.get(next);
    const location = res.headers.get('location');
    if (res.status < 300 || res.status >= 400 || !location) return res;
    next = new URL(location, next).toString();
  }
  throw new Error('too many redirects');
}

describe('the pages of the provider that send the browser to a client', () => {
  it('the other pages keep form-action to the portal and https (production)', async () => {
    const policy = directives(await pagePolicy());
    expect(policy.get('form-action')).toEqual(["'self'", 'https:']);
  });

  it('the logout confirmation lets its form reach the client’s http:// loopback post_logout_redirect_uri, and no other', async () => {
    const { browser, tokens } = await signedIn(spa, SPA_REDIRECT);
    const page = await confirmationPage(spa, browser, tokens.id_token!, SPA_LOGGED_OUT);
    const csp = page.headers.get('content-security-policy');
    expect(directives(csp).get('form-action')).toEqual(["'self'", SPA]);
    expect(otherDirectives(csp)).toEqual(otherDirectives(await pagePolicy()));
    expect(page.headers.get('cache-control')).toBe('no-store');
    // the form posts to the provider, which sends the browser on to that address
    const form = formInputs(page.text);
    expect(form.action).toBe(`${portal.url}/connect/endsession/confirm`);
    const confirm = await browser.request('POST', form.action, {
      raw: new URLSearchParams(form.inputs).toString(),
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(confirm.status).toBe(303);
    expect(confirm.headers.get('location')).toBe(`${SPA_LOGGED_OUT}?state=bye`);
  });

  it('without a post_logout_redirect_uri the confirmation’s form reaches the portal only', async () => {
    const { browser, tokens } = await signedIn(spa, SPA_REDIRECT);
    const page = await confirmationPage(spa, browser, tokens.id_token!);
    expect(directives(page.headers.get('content-security-policy')).get('form-action')).toEqual(["'self'"]);
  });

  it('an IPv6 loopback address, which no CSP source can name, is reached through its scheme on that page only', async () => {
    const { browser, tokens } = await signedIn(v6, `${V6}/callback`);
    const page = await confirmationPage(v6, browser, tokens.id_token!, `${V6}/`);
    expect(directives(page.headers.get('content-security-policy')).get('form-action')).toEqual(["'self'", 'http:']);
  });

  it('a response_mode=form_post answer lets its form reach the client’s registered redirect_uri, and no other', async () => {
    const browser = await portal.sessionFor(portal.adminUserId);
    await codeFlow(spa, browser, SPA_REDIRECT);
    const start = await startAuthorization(spa, SPA_REDIRECT, { response_mode: 'form_post' });
    const answer = await lastAnswer(browser, start.url.toString());
    expect(answer.status).toBe(200);
    const form = formInputs(answer.text);
    expect(form.action).toBe(SPA_REDIRECT);
    expect(form.inputs.code).toBeTruthy();
    const csp = answer.headers.get('content-security-policy');
    expect(directives(csp).get('form-action')).toEqual(["'self'", SPA]);
    // the provider's inline script, allowed by its hash
    expect(directives(csp).get('script-src')).toEqual(expect.arrayContaining(["'self'", expect.stringMatching(/^'sha256-/)]));
    expect(otherDirectives(csp)).toEqual(otherDirectives(await pagePolicy()));
  });

  it('an error answered by form_post (prompt=none, no session) reaches the client’s redirect_uri too', async () => {
    const start = await startAuthorization(spa, SPA_REDIRECT, { response_mode: 'form_post', prompt: 'none' });
    const answer = await lastAnswer(portal.client(), start.url.toString());
    expect(answer.status).toBe(400);
    const form = formInputs(answer.text);
    expect(form.action).toBe(SPA_REDIRECT);
    expect(form.inputs.error).toBe('login_required');
    expect(directives(answer.headers.get('content-security-policy')).get('form-action')).toEqual(["'self'", SPA]);
  });
});

/** A token request of the browser application from origin, with a cookie as a browser sends credentials. */
function tokenRequest(origin: string | null, body: Record<string, string>): Promise<Response> {
  return fetch(`${portal.url}/connect/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      cookie: 'pp_session=not-a-session',
      ...(origin ? { origin } : {}),
    },
    body: new URLSearchParams({ client_id: spaClientId, ...body }),
  });
}

function preflight(path: string, origin: string, method: string, headers: string): Promise<Response> {
  return fetch(`${portal.url}${path}`, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': headers },
  });
}

describe('credentialed CORS of a browser application', () => {
  it('the preflight of a credentialed token request is allowed with the exact origin and credentials', async () => {
    const res = await preflight('/connect/token', SPA, 'POST', 'content-type,dpop');
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(SPA);
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
    expect(res.headers.get('access-control-allow-headers')).toBe('content-type,dpop');
    expect(res.headers.get('vary')).toMatch(/origin/i);
  });

  it('a credentialed refresh from the client’s registered origin gets the tokens with its origin and credentials', async () => {
    const { tokens } = await signedIn(spa, SPA_REDIRECT);
    const res = await tokenRequest(SPA, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token! });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { access_token?: string }).access_token).toBeTruthy();
    expect(res.headers.get('access-control-allow-origin')).toBe(SPA);
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
    expect(res.headers.get('vary')).toMatch(/origin/i);
  });

  it('an error answer to the registered origin is readable too (credentials, exact origin)', async () => {
    const res = await tokenRequest(SPA, { grant_type: 'refresh_token', refresh_token: 'no-such-token' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe('invalid_grant');
    expect(res.headers.get('access-control-allow-origin')).toBe(SPA);
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
  });

  it('another origin, the null origin and no origin get no credentials (and the first two no answer to read)', async () => {
    const { tokens } = await signedIn(spa, SPA_REDIRECT);
    for (const origin of [OTHER_ORIGIN, 'null']) {
      const res = await tokenRequest(origin, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token! });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: string }).error).toBe('invalid_request');
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    }
    const serverSide = await tokenRequest(null, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token! });
    expect(serverSide.status).toBe(200);
    expect(serverSide.headers.get('access-control-allow-credentials')).toBeNull();
    expect(serverSide.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('a confidential client is not called from a browser: its registered origin is refused as before', async () => {
    const confidential = await registerClient(portal, {
      application_type: 'web',
      token_endpoint_auth_method: 'client_secret_post',
      redirect_uris: ['http://localhost:4713/callback'],
    });
    const res = await fetch(`${portal.url}/connect/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://localhost:4713' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: 'whatever',
        client_id: confidential.client_id,
        client_secret: confidential.client_secret,
      }),
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('userinfo and revocation answer the registered origin with credentials too', async () => {
    const { tokens } = await signedIn(spa, SPA_REDIRECT);
    const pre = await preflight('/connect/userinfo', SPA, 'GET', 'authorization');
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-credentials')).toBe('true');
    const userinfo = await fetch(`${portal.url}/connect/userinfo`, {
      headers: { authorization: `Bearer ${tokens.access_token}`, origin: SPA, cookie: 'pp_session=not-a-session' },
    });
    expect(userinfo.status).toBe(200);
    expect(userinfo.headers.get('access-control-allow-origin')).toBe(SPA);
    expect(userinfo.headers.get('access-control-allow-credentials')).toBe('true');
    const other = await fetch(`${portal.url}/connect/userinfo`, {
      headers: { authorization: `Bearer ${tokens.access_token}`, origin: OTHER_ORIGIN },
    });
    expect(other.status).toBe(400);
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    expect(other.headers.get('access-control-allow-credentials')).toBeNull();
    // an unknown token names no client: the provider's plain CORS answer, without credentials
    const unknown = await fetch(`${portal.url}/connect/userinfo`, { headers: { authorization: 'Bearer no-such-token', origin: SPA } });
    expect(unknown.status).toBe(401);
    expect(unknown.headers.get('access-control-allow-credentials')).toBeNull();
    const revocation = await fetch(`${portal.url}/connect/revocation`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: SPA },
      body: new URLSearchParams({ client_id: spaClientId, token: tokens.refresh_token! }),
    });
    expect(revocation.status).toBe(200);
    expect(revocation.headers.get('access-control-allow-origin')).toBe(SPA);
    expect(revocation.headers.get('access-control-allow-credentials')).toBe('true');
  });

  it('the public documents (discovery, keys) stay open to every origin, without credentials', async () => {
    for (const path of ['/.well-known/openid-configuration', '/connect/jwks']) {
      const res = await fetch(`${portal.url}${path}`, { headers: { origin: OTHER_ORIGIN } });
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe(OTHER_ORIGIN);
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    }
  });
});
