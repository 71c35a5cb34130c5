import * as oidcClient from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACR_MULTI_FACTOR, ACR_SINGLE_FACTOR } from '@partner-portal/contracts';
import type { HttpClient } from '../support/http.js';
import { startPortal, type TestPortal } from '../support/portal.js';
import { createUser, type TestUser } from '../identity/support.js';
import { enrolTotp, totpCode } from '../factors/support.js';
import { type AuthorizationStart, DCR_TOKEN, discover, redeemCode, REDIRECT, registerClient, startAuthorization } from './support.js';

/**
 * Re-authentication that clients can trust (OpenID Connect Core 3.1.2.1, 5.5.1.1): prompt=login
 * and max_age send a signed-in user through the password again, auth_time is when the user really
 * authenticated (the portal session's authentication time), acr_values is a preference list and an
 * essential acr of the claims parameter is a demand — met by a step-up, or refused, never a loop.
 * openid-client is the relying party: it checks state, nonce, PKCE, and auth_time against max_age.
 */
let portal: TestPortal;
let config: oidcClient.Configuration;
/** More hops than any correct flow takes between the client and a page (the loops went on for ever). */
const MAX_HOPS = 8;

beforeAll(async () => {
  portal = await startPortal({ DCR_INITIAL_ACCESS_TOKEN: DCR_TOKEN, LOGIN_RATE_LIMIT_PER_ACCOUNT: '1000' });
  const registered = await registerClient(portal);
  config = await discover(portal, registered.client_id);
});
afterAll(() => portal?.close());

/**
 * Follow the browser's redirects from url until they leave for the client (redirect_uri) or reach
 * the portal's login page; returns where they ended and how many redirects it took.
 */
async function follow(browser: HttpClient, url: string): Promise<{ at: 'client' | 'login'; url: string; hops: number }> {
  let next = url;
  for (let hops = 0; hops <= MAX_HOPS; hops++) {
    if (next.startsWith(REDIRECT)) return { at: 'client', url: next, hops };
    if (next.startsWith(`${portal.url}/login`)) return { at: 'login', url: next, hops };
    const res = await browser.get(next);
    const location = res.headers.get('location');
    if (res.status < 300 || res.status >= 400 || !location) throw new Error(`stopped at ${next}: ${res.status} ${res.text.slice(0, 300)}`);
    next = new URL(location, next).toString();
  }
  throw new Error(`more than ${MAX_HOPS} redirects (last ${next})`);
}

async function idTokenClaims(start: AuthorizationStart, callback: string, maxAge?: number) {
  const tokens = await redeemCode(config, start, callback, maxAge === undefined ? {} : { maxAge });
  return tokens.claims()!;
}

/** At the login page of an interaction: the e-mail and password steps; returns the password step's answer. */
async function passwordAgain(browser: HttpClient, loginPage: string, user: TestUser) {
  const returnUrl = new URL(loginPage).searchParams.get('ReturnUrl')!;
  expect(returnUrl).toMatch(/\/connect\/interaction\//);
  const step1 = await browser.post('/api/identity/email-login', { email: user.email, return_url: returnUrl });
  expect(step1.status, step1.text).toBe(200);
  const step2 = await browser.post('/api/identity/login', { email: user.email, password: user.password, return_url: returnUrl });
  expect(step2.status, step2.text).toBe(200);
  return { returnUrl, answer: step2.body as { valid_return_url: string | null; next_step?: string | null } };
}

/** Move the browser's portal session(s) of a user back in time, as if the sign-in was that long ago. */
async function signedInSecondsAgo(user: TestUser, seconds: number): Promise<void> {
  await portal.services.db.query(
    `UPDATE sessions SET created_at = created_at - make_interval(secs => $2), authenticated_at = authenticated_at - make_interval(secs => $2)
     WHERE user_id = $1`,
    [user.id, seconds],
  );
}

/** A new user with a browser signed in at the portal that many seconds ago. */
async function userSignedInSecondsAgo(seconds: number): Promise<{ user: TestUser; browser: HttpClient }> {
  const user = await createUser(portal);
  const browser = await portal.sessionFor(user.id);
  await signedInSecondsAgo(user, seconds);
  return { user, browser };
}

/** When the user's (only) live portal session last authenticated, in seconds since the epoch. */
async function authenticatedAt(user: TestUser): Promise<number> {
  const { rows } = await portal.services.db.query<{ at: number }>(
    'SELECT floor(extract(epoch FROM authenticated_at))::int AS at FROM sessions WHERE user_id = $1 AND expires_at > now()',
    [user.id],
  );
  expect(rows).toHaveLength(1);
  return Number(rows[0]!.at);
}

function acrClaims(container: 'id_token' | 'userinfo', request: Record<string, unknown>): string {
  return JSON.stringify({ [container]: { acr: { essential: true, ...request } } });
}

describe('auth_time', () => {
  it('is when the user signed in, not when the client asked', async () => {
    const { user, browser } = await userSignedInSecondsAgo(120);
    const signedInAt = await authenticatedAt(user);

    const start = await startAuthorization(config, REDIRECT);
    const landed = await follow(browser, start.url.toString());
    expect(landed.at).toBe('client');
    const claims = await idTokenClaims(start, landed.url);
    expect(claims.auth_time).toBe(signedInAt);
    expect(claims.auth_time!).toBeLessThan(Math.floor(Date.now() / 1000) - 100);
  });
});

describe('prompt=login', () => {
  it('asks for the password again; the code follows the new sign-in, whose time is auth_time', async () => {
    const user = await createUser(portal);
    const browser = await portal.sessionFor(user.id);
    // single sign-on first: the provider session exists
    const first = await startAuthorization(config, REDIRECT);
    const firstLanding = await follow(browser, first.url.toString());
    expect(firstLanding.at).toBe('client');
    await idTokenClaims(first, firstLanding.url);
    await signedInSecondsAgo(user, 60);
    const oldSignIn = await authenticatedAt(user);

    const start = await startAuthorization(config, REDIRECT, { prompt: 'login' });
    const landed = await follow(browser, start.url.toString());
    // the interaction does not complete from the existing session
    expect(landed.at).toBe('login');
    // the portal session itself goes on while the user signs in again
    expect((await browser.get('/api/identity/user-info')).status).toBe(200);
    // the interaction page asks again as long as the user has not signed in again
    expect((await follow(browser, new URL(landed.url).searchParams.get('ReturnUrl')!)).at).toBe('login');

    const beforePassword = Math.floor(Date.now() / 1000);
    const { returnUrl, answer } = await passwordAgain(browser, landed.url, user);
    expect(answer.next_step ?? null).toBeNull();
    expect(answer.valid_return_url).toBe(returnUrl);
    const done = await follow(browser, answer.valid_return_url!);
    expect(done.at).toBe('client');
    const claims = await idTokenClaims(start, done.url);
    expect(claims.sub).toBe(user.id);
    expect(claims.auth_time).toBe(await authenticatedAt(user));
    expect(claims.auth_time!).toBeGreaterThanOrEqual(beforePassword);
    expect(claims.auth_time!).toBeGreaterThan(oldSignIn);
  });

  it('asks for the second factor too when the account has one', async () => {
    const user = await createUser(portal);
    const browser = await portal.sessionFor(user.id);
    const { secret } = await enrolTotp(browser);
    await signedInSecondsAgo(user, 60);

    const start = await startAuthorization(config, REDIRECT, { prompt: 'login' });
    const landed = await follow(browser, start.url.toString());
    expect(landed.at).toBe('login');
    const { returnUrl, answer } = await passwordAgain(browser, landed.url, user);
    expect(answer).toMatchObject({ next_step: 'second_factor', valid_return_url: null });
    // the password alone does not complete the interaction
    expect((await follow(browser, returnUrl)).at).toBe('login');
    const second = await browser.post('/api/identity/second-factor', { code: totpCode(secret, 1) });
    expect(second.status, second.text).toBe(200);
    const done = await follow(browser, second.body.valid_return_url);
    expect(done.at).toBe('client');
    const claims = await idTokenClaims(start, done.url);
    expect(claims.acr).toBe(ACR_MULTI_FACTOR);
    expect(claims.auth_time).toBe(await authenticatedAt(user));
    expect(claims.auth_time!).toBeGreaterThan(Math.floor(Date.now() / 1000) - 30);
  });
});

describe('max_age', () => {
  it('max_age=1 more than a second after the sign-in asks for the password again', async () => {
    const { user, browser } = await userSignedInSecondsAgo(5);
    // the provider session follows the portal session's authentication time
    const plain = await startAuthorization(config, REDIRECT);
    const plainLanding = await follow(browser, plain.url.toString());
    expect(plainLanding.at).toBe('client');
    expect((await idTokenClaims(plain, plainLanding.url)).auth_time).toBe(await authenticatedAt(user));

    const start = await startAuthorization(config, REDIRECT, { max_age: '1' });
    const landed = await follow(browser, start.url.toString());
    expect(landed.at).toBe('login');
    const { answer } = await passwordAgain(browser, landed.url, user);
    const done = await follow(browser, answer.valid_return_url!);
    expect(done.at).toBe('client');
    // openid-client refuses an auth_time older than max_age (with its clock tolerance)
    const claims = await idTokenClaims(start, done.url, 1);
    expect(claims.auth_time).toBe(await authenticatedAt(user));
  });

  it('max_age=1 from a portal session without a provider session asks again too', async () => {
    const { browser } = await userSignedInSecondsAgo(5);
    const start = await startAuthorization(config, REDIRECT, { max_age: '1' });
    expect((await follow(browser, start.url.toString())).at).toBe('login');
  });

  it('a max_age the sign-in is within needs no password, and auth_time is the sign-in', async () => {
    const { user, browser } = await userSignedInSecondsAgo(5);
    const start = await startAuthorization(config, REDIRECT, { max_age: '3600' });
    const landed = await follow(browser, start.url.toString());
    expect(landed.at).toBe('client');
    const claims = await idTokenClaims(start, landed.url, 3600);
    expect(claims.auth_time).toBe(await authenticatedAt(user));
  });

  it('prompt=none with a sign-in older than max_age answers login_required', async () => {
    const { browser } = await userSignedInSecondsAgo(5);
    // single sign-on first: the provider session takes the portal session's sign-in time
    const first = await startAuthorization(config, REDIRECT);
    await idTokenClaims(first, (await follow(browser, first.url.toString())).url);
    const start = await startAuthorization(config, REDIRECT, { max_age: '1', prompt: 'none' });
    const landed = await follow(browser, start.url.toString());
    expect(landed.at).toBe('client');
    expect(new URL(landed.url).searchParams.get('error')).toBe('login_required');
  });
});

describe('acr', () => {
  /** A user with an authenticator app whose browser session is proven by the password alone. */
  async function passwordSessionWithApp(): Promise<{ user: TestUser; browser: HttpClient; secret: string }> {
    const user = await createUser(portal);
    const browser = await portal.sessionFor(user.id);
    const { secret } = await enrolTotp(browser);
    await portal.services.db.query(`UPDATE sessions SET amr = '{}' WHERE user_id = $1`, [user.id]);
    return { user, browser, secret };
  }

  for (const [container, request] of [
    ['id_token', { values: [ACR_MULTI_FACTOR] }],
    ['userinfo', { value: ACR_MULTI_FACTOR }],
  ] as const) {
    it(`an essential multi-factor acr (claims.${container}) gets a step-up, without a loop, and acr mfa`, async () => {
      const { user, browser, secret } = await passwordSessionWithApp();
      const start = await startAuthorization(config, REDIRECT, { claims: acrClaims(container, request) });
      const landed = await follow(browser, start.url.toString());
      expect(landed.at).toBe('login');
      // authorization → interaction → login page
      expect(landed.hops).toBeLessThanOrEqual(2);
      const { answer } = await passwordAgain(browser, landed.url, user);
      expect(answer.next_step).toBe('second_factor');
      const second = await browser.post('/api/identity/second-factor', { code: totpCode(secret, 1) });
      expect(second.status, second.text).toBe(200);
      const done = await follow(browser, second.body.valid_return_url);
      expect(done.at).toBe('client');
      // interaction → authorization → consent interaction → authorization → client
      expect(done.hops).toBeLessThanOrEqual(4);
      const claims = await idTokenClaims(start, done.url);
      expect(claims.acr).toBe(ACR_MULTI_FACTOR);
      expect(claims.amr).toEqual(['pwd', 'otp', 'mfa']);

      // now met by the session: no login
      const again = await startAuthorization(config, REDIRECT, { claims: acrClaims(container, request) });
      const againLanding = await follow(browser, again.url.toString());
      expect(againLanding.at).toBe('client');
      expect((await idTokenClaims(again, againLanding.url)).acr).toBe(ACR_MULTI_FACTOR);
    });
  }

  it('an essential acr listing the single-factor acr is met by a password session', async () => {
    const { browser } = await passwordSessionWithApp();
    const start = await startAuthorization(config, REDIRECT, {
      claims: acrClaims('id_token', { values: [ACR_MULTI_FACTOR, ACR_SINGLE_FACTOR] }),
    });
    const landed = await follow(browser, start.url.toString());
    expect(landed.at).toBe('client');
    expect((await idTokenClaims(start, landed.url)).acr).toBe(ACR_SINGLE_FACTOR);
  });

  it('an essential acr the portal never issues is refused with unmet_authentication_requirements', async () => {
    const user = await createUser(portal);
    const browser = await portal.sessionFor(user.id);
    const start = await startAuthorization(config, REDIRECT, { claims: acrClaims('id_token', { values: ['urn:example:acr:gold'] }) });
    const landed = await follow(browser, start.url.toString());
    expect(landed.at).toBe('client');
    expect(new URL(landed.url).searchParams.get('error')).toBe('unmet_authentication_requirements');
  });

  it('an essential multi-factor acr for an account of the external identity provider is refused, not looped', async () => {
    const user = await createUser(portal, { password: null, externalIdp: 'external', externalSubject: `sub-${Date.now()}` });
    const browser = await portal.sessionFor(user.id);
    const start = await startAuthorization(config, REDIRECT, { claims: acrClaims('id_token', { value: ACR_MULTI_FACTOR }) });
    const landed = await follow(browser, start.url.toString());
    expect(landed.at).toBe('client');
    expect(new URL(landed.url).searchParams.get('error')).toBe('unmet_authentication_requirements');

    // acr_values is a wish: the external account gets its single-factor acr and the client decides
    const wish = await startAuthorization(config, REDIRECT, { acr_values: ACR_MULTI_FACTOR });
    const wishLanding = await follow(browser, wish.url.toString());
    expect(wishLanding.at).toBe('client');
    expect((await idTokenClaims(wish, wishLanding.url)).acr).toBe(ACR_SINGLE_FACTOR);
  });

  it('acr_values listing the single-factor acr and then mfa is met by a password session: no step-up', async () => {
    const { browser } = await passwordSessionWithApp();
    const start = await startAuthorization(config, REDIRECT, { acr_values: `${ACR_SINGLE_FACTOR} ${ACR_MULTI_FACTOR}` });
    const landed = await follow(browser, start.url.toString());
    expect(landed.at).toBe('client');
    const claims = await idTokenClaims(start, landed.url);
    expect(claims.acr).toBe(ACR_SINGLE_FACTOR);
    expect((await browser.get('/api/identity/user-info')).status).toBe(200);
  });

  it('a malformed essential acr is refused with invalid_request; one without values asks nothing', async () => {
    const user = await createUser(portal);
    const browser = await portal.sessionFor(user.id);
    const bad = await startAuthorization(config, REDIRECT, { claims: acrClaims('id_token', { values: ACR_MULTI_FACTOR }) });
    const badLanding = await follow(browser, bad.url.toString());
    expect(badLanding.at).toBe('client');
    expect(new URL(badLanding.url).searchParams.get('error')).toBe('invalid_request');
    const badValue = await startAuthorization(config, REDIRECT, { claims: acrClaims('userinfo', { value: 7 }) });
    expect(new URL((await follow(browser, badValue.url.toString())).url).searchParams.get('error')).toBe('invalid_request');

    const any = await startAuthorization(config, REDIRECT, { claims: acrClaims('id_token', {}) });
    const anyLanding = await follow(browser, any.url.toString());
    expect(anyLanding.at).toBe('client');
    expect((await idTokenClaims(any, anyLanding.url)).acr).toBe(ACR_SINGLE_FACTOR);
  });

  it('a client that registered default_acr_values mfa gets the step-up without asking (its metadata makes it a demand)', async () => {
    const registered = await registerClient(portal, { default_acr_values: [ACR_MULTI_FACTOR] });
    const strict = await discover(portal, registered.client_id);
    const { browser } = await passwordSessionWithApp();
    const start = await startAuthorization(strict, REDIRECT);
    expect((await follow(browser, start.url.toString())).at).toBe('login');
  });

  it('acr_values listing mfa alone still gets the step-up', async () => {
    const { user, browser, secret } = await passwordSessionWithApp();
    const start = await startAuthorization(config, REDIRECT, { acr_values: ACR_MULTI_FACTOR });
    const landed = await follow(browser, start.url.toString());
    expect(landed.at).toBe('login');
    const { answer } = await passwordAgain(browser, landed.url, user);
    expect(answer.next_step).toBe('second_factor');
    const second = await browser.post('/api/identity/second-factor', { code: totpCode(secret, 1) });
    const done = await follow(browser, second.body.valid_return_url);
    expect(done.at).toBe('client');
    expect((await idTokenClaims(start, done.url)).acr).toBe(ACR_MULTI_FACTOR);
  });
});
