import * as oidcClient from 'openid-client';
import { expect } from 'vitest';
import type { HttpClient } from '../support/http.js';
import type { TestPortal } from '../support/portal.js';

export const DCR_TOKEN = 'dcr-initial-access-token-for-tests';
/** Where a client registered by registerClient is sent back to after the sign-in, and after the logout. */
export const REDIRECT = 'http://127.0.0.1:8123/callback';
export const LOGGED_OUT = 'http://127.0.0.1:8123/logged-out';

/** Register a public (PKCE) client through /connect/dcr; returns its metadata as answered. */
export async function registerClient(portal: TestPortal, metadata: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const res = await fetch(`${portal.url}/connect/dcr`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${DCR_TOKEN}` },
    body: JSON.stringify({
      client_name: 'Test relying party',
      redirect_uris: [REDIRECT],
      post_logout_redirect_uris: [LOGGED_OUT],
      token_endpoint_auth_method: 'none',
      application_type: 'native',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      ...metadata,
    }),
  });
  const body = (await res.json()) as Record<string, any>;
  expect(res.status, JSON.stringify(body)).toBe(201);
  return body;
}

export async function discover(portal: TestPortal, clientId: string, clientSecret?: string): Promise<oidcClient.Configuration> {
  return oidcClient.discovery(
    new URL(portal.url),
    clientId,
    undefined,
    clientSecret ? oidcClient.ClientSecretBasic(clientSecret) : oidcClient.None(),
    { execute: [oidcClient.allowInsecureRequests] },
  );
}

/** Follow redirects in the browser until one leaves for a URL starting with stopAt (returned), or a page answers. */
export async function followUntil(browser: HttpClient, url: string, stopAt: string, max = 10): Promise<string> {
  let next = url;
  for (let i = 0; i < max; i++) {
    if (next.startsWith(stopAt)) return next;
    const res = await browser.get(next.startsWith('http') ? next : `${browser.baseUrl}${next}`);
    const location = res.headers.get('location');
    if (res.status < 300 || res.status >= 400 || !location) throw new Error(`stopped at ${next}: ${res.status} ${res.text.slice(0, 300)}`);
    next = new URL(location, next.startsWith('http') ? next : browser.baseUrl).toString();
  }
  throw new Error('too many redirects');
}

export interface AuthorizationStart {
  url: URL;
  state: string;
  nonce: string;
  codeVerifier: string;
}

export async function startAuthorization(
  config: oidcClient.Configuration,
  redirectUri: string,
  extra: Record<string, string> = {},
): Promise<AuthorizationStart> {
  const codeVerifier = oidcClient.randomPKCECodeVerifier();
  const state = oidcClient.randomState();
  const nonce = oidcClient.randomNonce();
  const url = oidcClient.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: 'openid email profile organization rights',
    code_challenge: await oidcClient.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    ...extra,
  });
  return { url, state, nonce, codeVerifier };
}

/** The client redeems the code of the callback it was sent back to, checking what it started with (PKCE, state, nonce). */
export function redeemCode(
  config: oidcClient.Configuration,
  start: AuthorizationStart,
  callback: string,
  checks: { maxAge?: number } = {},
): ReturnType<typeof oidcClient.authorizationCodeGrant> {
  return oidcClient.authorizationCodeGrant(config, new URL(callback), {
    pkceCodeVerifier: start.codeVerifier,
    expectedState: start.state,
    expectedNonce: start.nonce,
    ...checks,
  });
}

/** A code flow for a browser already signed in at the portal: authorize, follow back to the client, redeem the code. */
export async function codeFlow(
  config: oidcClient.Configuration,
  browser: HttpClient,
  redirectUri: string,
  extra: Record<string, string> = {},
): ReturnType<typeof oidcClient.authorizationCodeGrant> {
  const start = await startAuthorization(config, redirectUri, extra);
  return redeemCode(config, start, await followUntil(browser, start.url.toString(), redirectUri));
}

/**
 * The browser side of a code flow with the portal's two-step login: authorize → /login?ReturnUrl
 * → e-mail step → password step → valid_return_url → back at the client's redirect_uri.
 */
export async function loginThroughPortal(
  browser: HttpClient,
  authorizationUrl: URL,
  redirectUri: string,
  credentials: { email: string; password: string; remember?: boolean },
): Promise<{ callback: string; returnUrl: string; context: any }> {
  const loginPage = await followUntil(browser, authorizationUrl.toString(), `${browser.baseUrl}/login`);
  const returnUrl = new URL(loginPage).searchParams.get('ReturnUrl')!;
  expect(returnUrl).toMatch(/\/connect\/interaction\//);
  const context = await browser.get(`/api/identity/context?returnUrl=${encodeURIComponent(returnUrl)}`);
  expect(context.status).toBe(200);
  const step1 = await browser.post('/api/identity/email-login', { email: credentials.email, return_url: returnUrl });
  expect(step1.status, step1.text).toBe(200);
  expect(step1.body.external_login).toBeNull();
  const step2 = await browser.post('/api/identity/login', { ...credentials, return_url: returnUrl });
  expect(step2.status, step2.text).toBe(200);
  expect(step2.body.valid_return_url).toBe(returnUrl);
  const callback = await followUntil(browser, step2.body.valid_return_url, redirectUri);
  return { callback, returnUrl, context: context.body };
}

/** Parse the hidden inputs of an HTML form. */
export function formInputs(html: string): { action: string; inputs: Record<string, string> } {
  const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1] ?? '';
  const inputs: Record<string, string> = {};
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\/?>/g)) inputs[m[1]!] = m[2]!;
  return { action: action.replace(/&amp;/g, '&'), inputs };
}
