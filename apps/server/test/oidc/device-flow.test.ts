import * as oidcClient from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACR_MULTI_FACTOR } from '@partner-portal/contracts';
import { enrolTotp, totpCode } from '../factors/support.js';
import { createUser } from '../identity/support.js';
import type { HttpClient } from '../support/http.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startPortal, type TestPortal } from '../support/portal.js';
import { signIn } from '../support/sign-in.js';
import { DCR_TOKEN, discover, followUntil, formInputs, registerClient } from './support.js';

/**
 * Device sign-in (RFC 8628) from outside: openid-client 6 as the device, a client registered for
 * the device_code grant through /connect/dcr, and the person's browser making the calls of the web
 * page /device (look the code up, decide, follow the provider's hand-over back to /device).
 */
const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

let portal: TestPortal;
let config: oidcClient.Configuration;
let clientId: string;
let browser: HttpClient;

beforeAll(async () => {
  portal = await startPortal({ DCR_INITIAL_ACCESS_TOKEN: DCR_TOKEN });
  const registered = await registerClient(portal, {
    client_name: 'Living-room television',
    logo_uri: 'https://tv.example.com/logo.png',
    client_uri: 'https://tv.example.com/',
    grant_types: [DEVICE_GRANT, 'refresh_token'],
    response_types: [],
    redirect_uris: undefined,
    post_logout_redirect_uris: undefined,
  });
  clientId = registered.client_id;
  config = await discover(portal, clientId);
  browser = await signIn(portal.client(), { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
});
afterAll(() => portal?.close());

/** The device's first poll comes once the person has decided (interval 0: no wait before it). */
function poll(device: oidcClient.DeviceAuthorizationResponse) {
  return oidcClient.pollDeviceAuthorizationGrant(config, { ...device, interval: 0 });
}

/** The browser follows continue_url: the provider's page posts the decision, the provider sends it back to /device?result=… */
async function handOver(client: HttpClient, continueUrl: string): Promise<string> {
  const page = await client.get(continueUrl);
  expect(page.status, page.text).toBe(200);
  const { action, inputs } = formInputs(page.text);
  expect(action).toBe(`${portal.url}/connect/device`);
  const posted = await client.request('POST', action, {
    raw: new URLSearchParams(inputs).toString(),
    contentType: 'application/x-www-form-urlencoded',
  });
  expect(posted.status, posted.text).toBe(303);
  return followUntil(client, new URL(posted.headers.get('location')!, portal.url).toString(), `${portal.url}/device`);
}

async function decide(client: HttpClient, userCode: string, decision: 'allow' | 'deny'): Promise<string> {
  const res = await client.post('/api/device/decision', { user_code: userCode, decision });
  expect(res.status, res.text).toBe(200);
  expect(res.body.continue_url).toMatch(/^\/connect\/device\?decision=/);
  return handOver(client, res.body.continue_url);
}

describe('device sign-in', () => {
  it('advertises the device authorization endpoint and tells the device the portal page', async () => {
    const discovery = (await portal.client().get('/.well-known/openid-configuration')).body;
    expect(discovery.device_authorization_endpoint).toBe(`${portal.url}/connect/device/auth`);
    expect(discovery.grant_types_supported).toContain(DEVICE_GRANT);
    const device = await oidcClient.initiateDeviceAuthorization(config, { scope: 'openid email' });
    expect(device.verification_uri).toBe(`${portal.url}/device`);
    expect(device.verification_uri_complete).toBe(`${portal.url}/device?user_code=${encodeURIComponent(device.user_code)}`);
    expect(device.user_code).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
  });

  it('a signed-in person allows with the code: the device gets tokens whose ID token names that person', async () => {
    const device = await oidcClient.initiateDeviceAuthorization(config, { scope: 'openid email profile' });
    // typed in lower case and without the dash, as people do
    const typed = device.user_code.toLowerCase().replace('-', ' ');
    const lookup = await browser.post('/api/device/lookup', { user_code: typed });
    expect(lookup.status, lookup.text).toBe(200);
    expect(lookup.body).toEqual({
      user_code: device.user_code,
      client: {
        client_id: clientId,
        client_name: 'Living-room television',
        logo_uri: 'https://tv.example.com/logo.png',
        client_uri: 'https://tv.example.com/',
      },
      scopes: ['openid', 'email', 'profile'],
    });
    expect(await decide(browser, typed, 'allow')).toBe(`${portal.url}/device?result=allowed`);
    const tokens = await poll(device);
    expect(tokens.access_token).toBeTruthy();
    expect(tokens.claims()!.sub).toBe(portal.adminUserId);
    expect(tokens.claims()!.email).toBe(ADMIN_EMAIL);
    // the code works once
    const again = await browser.post('/api/device/lookup', { user_code: device.user_code });
    expect(again.status).toBe(409);
    expect(again.body.i18NTranslationKey).toBe('device_code_used');
  });

  it('deny: the device gets access_denied', async () => {
    const device = await oidcClient.initiateDeviceAuthorization(config, { scope: 'openid' });
    expect(await decide(browser, device.user_code, 'deny')).toBe(`${portal.url}/device?result=denied`);
    await expect(poll(device)).rejects.toMatchObject({ error: 'access_denied' });
  });

  it('an unknown or expired code: a clear error for the page, and expired_token for the device', async () => {
    const unknown = await browser.post('/api/device/lookup', { user_code: 'BBBB-BBBB' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.i18NTranslationKey).toBe('device_code_unknown');
    const device = await oidcClient.initiateDeviceAuthorization(config, { scope: 'openid' });
    await portal.services.db.query(
      `UPDATE oidc_payloads SET expires_at = now() - interval '1 second',
         payload = jsonb_set(payload, '{exp}', to_jsonb(extract(epoch FROM now())::bigint - 1))
       WHERE model = 'DeviceCode' AND user_code = $1`,
      [device.user_code.replace('-', '')],
    );
    const expired = await browser.post('/api/device/decision', { user_code: device.user_code, decision: 'allow' });
    expect(expired.status).toBe(400);
    expect(expired.body.i18NTranslationKey).toBe('device_code_unknown');
    await expect(poll(device)).rejects.toMatchObject({ error: 'expired_token' });
  });

  it('refuses the page calls without a session, and an empty code with a translated 400', async () => {
    const anonymous = await portal.client().post('/api/device/lookup', { user_code: 'BBBB-BBBB' });
    expect(anonymous.status).toBe(401);
    const empty = await browser.post('/api/device/lookup', { user_code: ' ' });
    expect(empty.status).toBe(400);
    const bad = await browser.post('/api/device/decision', { user_code: 'BBBB-BBBB', decision: 'maybe' });
    expect(bad.status).toBe(400);
  });

  it('a GET of the device authorization endpoint or of an unknown resumed sign-in: 405 and the page, never a 5xx', async () => {
    const get = await fetch(`${portal.url}/connect/device/auth?scope=openid`, { redirect: 'manual' });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toContain('POST');
    const resumed = await fetch(`${portal.url}/connect/device/not-an-interaction`, { redirect: 'manual' });
    expect(resumed.status).toBe(303);
    expect(resumed.headers.get('location')).toMatch(new RegExp(`^${portal.url}/device\\?result=`));
  });

  it('the provider’s own code page hands over to /device, and a decision of someone else’s session is not posted', async () => {
    const device = await oidcClient.initiateDeviceAuthorization(config, { scope: 'openid' });
    const other = await portal.sessionFor((await createUser(portal)).id);
    const decision = await browser.post('/api/device/decision', { user_code: device.user_code, decision: 'allow' });
    const stolen = await other.get(decision.body.continue_url);
    expect(stolen.status).toBe(303);
    expect(stolen.headers.get('location')).toBe(`${portal.url}/device`);
    // verification_uri_complete at the provider: its confirmation step is the page's
    const page = await other.get(`/connect/device?user_code=${encodeURIComponent(device.user_code)}`);
    const { action, inputs } = formInputs(page.text);
    const posted = await other.request('POST', action, {
      raw: new URLSearchParams(inputs).toString(),
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(posted.status).toBe(303);
    expect(posted.headers.get('location')).toBe(`${portal.url}/device?user_code=${encodeURIComponent(device.user_code)}`);
  });

  it('the sign-in’s interaction policy applies: a device asking for multi-factor makes a password-only session sign in again with the app’s code', async () => {
    const user = await createUser(portal);
    const person = await portal.sessionFor(user.id);
    const { secret } = await enrolTotp(person);
    await portal.services.db.query(`UPDATE sessions SET amr = '{}' WHERE user_id = $1`, [user.id]);
    const device = await oidcClient.initiateDeviceAuthorization(config, { scope: 'openid', acr_values: ACR_MULTI_FACTOR });
    const decision = await person.post('/api/device/decision', { user_code: device.user_code, decision: 'allow' });
    expect(decision.status, decision.text).toBe(200);
    const page = await person.get(decision.body.continue_url);
    const { action, inputs } = formInputs(page.text);
    const posted = await person.request('POST', action, {
      raw: new URLSearchParams(inputs).toString(),
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(posted.status, posted.text).toBe(303);
    const loginPage = await followUntil(person, new URL(posted.headers.get('location')!, portal.url).toString(), `${portal.url}/login`);
    const returnUrl = new URL(loginPage).searchParams.get('ReturnUrl')!;
    expect(returnUrl).toMatch(/\/connect\/interaction\//);
    await person.post('/api/identity/email-login', { email: user.email, return_url: returnUrl });
    const login = await person.post('/api/identity/login', { email: user.email, password: user.password, return_url: returnUrl });
    expect(login.body).toMatchObject({ next_step: 'second_factor', valid_return_url: null });
    const second = await person.post('/api/identity/second-factor', { code: totpCode(secret, 1) });
    expect(second.status, second.text).toBe(200);
    expect(await followUntil(person, second.body.valid_return_url, `${portal.url}/device`)).toBe(`${portal.url}/device?result=allowed`);
    const claims = (await poll(device)).claims()!;
    expect(claims.sub).toBe(user.id);
    expect(claims.acr).toBe(ACR_MULTI_FACTOR);
  });

  it('a catalogue client may be registered for the grant (apps.oidc_metadata)', async () => {
    await portal.services.db.query(`UPDATE apps SET oidc_metadata = $1 WHERE client_id = 'loyalty-app'`, [
      JSON.stringify({
        client_name: 'Loyalty kiosk',
        token_endpoint_auth_method: 'none',
        grant_types: [DEVICE_GRANT],
        response_types: [],
      }),
    ]);
    const kiosk = await discover(portal, 'loyalty-app');
    const device = await oidcClient.initiateDeviceAuthorization(kiosk, { scope: 'openid' });
    const lookup = await browser.post('/api/device/lookup', { user_code: device.user_code });
    expect(lookup.status, lookup.text).toBe(200);
    expect(lookup.body.client).toEqual({ client_id: 'loyalty-app', client_name: 'Loyalty kiosk', logo_uri: null, client_uri: null });
  });

  it('counts wrong codes as guesses per person: past the limit 429 with Retry-After, at the API and at the provider', async () => {
    const guesser = await portal.sessionFor((await createUser(portal)).id);
    const limit = portal.config.LOGIN_RATE_LIMIT_PER_ACCOUNT;
    for (let i = 0; i < limit; i++) {
      const res = await guesser.post('/api/device/lookup', { user_code: `BBBB-BB${String(i).padStart(2, 'B')}` });
      expect(res.status).toBe(400);
    }
    const refused = await guesser.post('/api/device/lookup', { user_code: 'CCCC-CCCC' });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // the provider's endpoint counts the same guesses of this person
    const page = await guesser.get('/connect/device');
    expect(page.status).toBe(303);
    const form = await guesser.request('POST', '/connect/device', {
      raw: new URLSearchParams({ xsrf: 'x', user_code: 'CCCC-CCCC' }).toString(),
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(form.status).toBe(429);
    expect(form.headers.get('retry-after')).toBeTruthy();
  });
});
