import * as oidcClient from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACR_MULTI_FACTOR, ACR_SINGLE_FACTOR } from '@partner-portal/contracts';
import { startPortal, type TestPortal } from '../support/portal.js';
import { createUser } from '../identity/support.js';
import { enrolTotp, totpCode } from '../factors/support.js';
import { DCR_TOKEN, discover, followUntil, redeemCode, REDIRECT, registerClient, startAuthorization } from './support.js';

/**
 * A relying party (openid-client) that asks for multi-factor with acr_values gets a step-up: a
 * session proven by a password alone is not enough, the user signs in again with a second factor
 * (or sets one up first), and the ID token carries amr and acr.
 */
let portal: TestPortal;
let config: oidcClient.Configuration;

beforeAll(async () => {
  portal = await startPortal({ DCR_INITIAL_ACCESS_TOKEN: DCR_TOKEN });
  const registered = await registerClient(portal);
  config = await discover(portal, registered.client_id);
});
afterAll(() => portal?.close());

async function idTokenClaims(start: Awaited<ReturnType<typeof startAuthorization>>, callback: string) {
  const tokens = await redeemCode(config, start, callback);
  return tokens.claims()!;
}

it('advertises the acr values in discovery', () => {
  expect(config.serverMetadata().acr_values_supported).toEqual([ACR_SINGLE_FACTOR, ACR_MULTI_FACTOR]);
});

describe('step-up', () => {
  it('a password alone gives amr pwd and the single-factor acr', async () => {
    const user = await createUser(portal);
    const browser = portal.client();
    const start = await startAuthorization(config, REDIRECT);
    const loginPage = await followUntil(browser, start.url.toString(), `${portal.url}/login`);
    const returnUrl = new URL(loginPage).searchParams.get('ReturnUrl')!;
    await browser.post('/api/identity/email-login', { email: user.email, return_url: returnUrl });
    const login = await browser.post('/api/identity/login', { email: user.email, password: user.password, return_url: returnUrl });
    expect(login.body.next_step ?? null).toBeNull();
    const claims = await idTokenClaims(start, await followUntil(browser, login.body.valid_return_url, REDIRECT));
    expect(claims.amr).toEqual(['pwd']);
    expect(claims.acr).toBe(ACR_SINGLE_FACTOR);
  });

  it('a password session of an account with an app: acr_values asks for multi-factor, the user signs in again with a code', async () => {
    const user = await createUser(portal);
    // a session proven by the password alone (e.g. from before the app was set up)
    const browser = await portal.sessionFor(user.id);
    const { secret } = await enrolTotp(browser);
    await portal.services.db.query(`UPDATE sessions SET amr = '{}' WHERE user_id = $1`, [user.id]);

    // without acr_values the session is enough (single sign-on), with the single-factor acr
    const plain = await startAuthorization(config, REDIRECT);
    const plainClaims = await idTokenClaims(plain, await followUntil(browser, plain.url.toString(), REDIRECT));
    expect(plainClaims.acr).toBe(ACR_SINGLE_FACTOR);

    const start = await startAuthorization(config, REDIRECT, { acr_values: ACR_MULTI_FACTOR });
    const loginPage = await followUntil(browser, start.url.toString(), `${portal.url}/login`);
    const returnUrl = new URL(loginPage).searchParams.get('ReturnUrl')!;
    expect(returnUrl).toMatch(/\/connect\/interaction\//);
    await browser.post('/api/identity/email-login', { email: user.email, return_url: returnUrl });
    const login = await browser.post('/api/identity/login', { email: user.email, password: user.password, return_url: returnUrl });
    expect(login.body).toMatchObject({ next_step: 'second_factor', valid_return_url: null });
    const second = await browser.post('/api/identity/second-factor', { code: totpCode(secret, 1) });
    expect(second.status, second.text).toBe(200);
    expect(second.body.valid_return_url).toBe(returnUrl);
    const claims = await idTokenClaims(start, await followUntil(browser, second.body.valid_return_url, REDIRECT));
    expect(claims.sub).toBe(user.id);
    expect(claims.amr).toEqual(['pwd', 'otp', 'mfa']);
    expect(claims.acr).toBe(ACR_MULTI_FACTOR);

    // the multi-factor session now satisfies such requests without a login
    const again = await startAuthorization(config, REDIRECT, { acr_values: ACR_MULTI_FACTOR });
    const againClaims = await idTokenClaims(again, await followUntil(browser, again.url.toString(), REDIRECT));
    expect(againClaims.acr).toBe(ACR_MULTI_FACTOR);
  });

  it('an account without a second factor sets up an app during the sign-in, before any session exists', async () => {
    const user = await createUser(portal);
    const browser = portal.client();
    const start = await startAuthorization(config, REDIRECT, { acr_values: ACR_MULTI_FACTOR });
    const loginPage = await followUntil(browser, start.url.toString(), `${portal.url}/login`);
    const returnUrl = new URL(loginPage).searchParams.get('ReturnUrl')!;
    await browser.post('/api/identity/email-login', { email: user.email, return_url: returnUrl });
    const login = await browser.post('/api/identity/login', { email: user.email, password: user.password, return_url: returnUrl });
    expect(login.body).toMatchObject({ next_step: 'enrol_second_factor', valid_return_url: null });
    expect((await browser.get('/api/identity/user-info')).status).toBe(401);
    // the pending sign-in may only enrol: it is no session
    expect((await browser.get('/api/factors')).status).toBe(401);

    const { recoveryCodes, answer } = await enrolTotp(browser);
    expect(recoveryCodes).toHaveLength(10);
    expect(answer.valid_return_url).toBe(returnUrl);
    const claims = await idTokenClaims(start, await followUntil(browser, answer.valid_return_url!, REDIRECT));
    expect(claims.amr).toEqual(['pwd', 'otp', 'mfa']);
    expect(claims.acr).toBe(ACR_MULTI_FACTOR);
  });

  it('prompt=none with acr_values for multi-factor and a password session answers login_required', async () => {
    const user = await createUser(portal);
    const browser = await portal.sessionFor(user.id);
    const first = await startAuthorization(config, REDIRECT);
    await idTokenClaims(first, await followUntil(browser, first.url.toString(), REDIRECT));
    const start = await startAuthorization(config, REDIRECT, { acr_values: ACR_MULTI_FACTOR, prompt: 'none' });
    const callback = new URL(await followUntil(browser, start.url.toString(), REDIRECT));
    expect(callback.searchParams.get('error')).toBe('login_required');
  });
});
