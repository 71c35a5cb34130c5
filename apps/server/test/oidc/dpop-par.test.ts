import * as oidcClient from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpClient } from '../support/http.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startPortal, type TestPortal } from '../support/portal.js';
import { signIn } from '../support/sign-in.js';
import { DCR_TOKEN, discover, followUntil, REDIRECT, registerClient, startAuthorization } from './support.js';

/**
 * DPoP (RFC 9449) and pushed authorization requests (RFC 9126) from outside, with openid-client 6:
 * advertised in discovery, and enforced for a client registered with dpop_bound_access_tokens
 * (through /connect/dcr) or require_pushed_authorization_requests (a catalogue client).
 */
let portal: TestPortal;
let browser: HttpClient;

beforeAll(async () => {
  portal = await startPortal({ DCR_INITIAL_ACCESS_TOKEN: DCR_TOKEN });
  browser = await signIn(portal.client(), { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
});
afterAll(() => portal?.close());

it('discovery advertises DPoP and the PAR endpoint', async () => {
  const d = (await portal.client().get('/.well-known/openid-configuration')).body;
  expect(d.dpop_signing_alg_values_supported).toEqual(expect.arrayContaining(['ES256']));
  expect(d.pushed_authorization_request_endpoint).toBe(`${portal.url}/connect/par`);
});

describe('a DPoP-bound client (dpop_bound_access_tokens, registered through /connect/dcr)', () => {
  let config: oidcClient.Configuration;
  let DPoP: oidcClient.DPoPHandle;

  beforeAll(async () => {
    const registered = await registerClient(portal, { client_name: 'Bound app', dpop_bound_access_tokens: true });
    expect(registered.dpop_bound_access_tokens).toBe(true);
    config = await discover(portal, registered.client_id);
    DPoP = oidcClient.getDPoPHandle(config, await oidcClient.randomDPoPKeyPair());
  });

  async function callback() {
    const start = await startAuthorization(config, REDIRECT);
    const url = await followUntil(browser, start.url.toString(), REDIRECT);
    const checks = { pkceCodeVerifier: start.codeVerifier, expectedState: start.state, expectedNonce: start.nonce };
    return { url: new URL(url), checks };
  }

  it('gets DPoP-bound tokens; user-info works with the proof and is refused without it', async () => {
    const { url, checks } = await callback();
    const tokens = await oidcClient.authorizationCodeGrant(config, url, checks, undefined, { DPoP });
    expect(tokens.token_type.toLowerCase()).toBe('dpop');
    const sub = tokens.claims()!.sub;
    const info = await oidcClient.fetchUserInfo(config, tokens.access_token, sub, { DPoP });
    expect(info.email).toBe(ADMIN_EMAIL);

    const withoutProof = await fetch(`${portal.url}/connect/userinfo`, { headers: { authorization: `DPoP ${tokens.access_token}` } });
    // the token without its proof: 401 with the DPoP challenge
    const asBearer = await fetch(`${portal.url}/connect/userinfo`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(asBearer.status).toBe(401);
    expect(asBearer.headers.get('www-authenticate')).toMatch(/^DPoP .*error="invalid_token"/);
    // the DPoP scheme without the DPoP header is a malformed request (oidc-provider: 400 invalid_request), with the same challenge
    expect(withoutProof.status).toBe(400);
    expect(withoutProof.headers.get('www-authenticate')).toMatch(/^DPoP .*error="invalid_request"/);

    // the portal's own /api takes no DPoP token: a clean 401, never a 500
    for (const scheme of ['DPoP', 'Bearer']) {
      const api = await fetch(`${portal.url}/api/identity/sessions`, { headers: { authorization: `${scheme} ${tokens.access_token}` } });
      expect(api.status, scheme).toBe(401);
      expect(api.headers.get('www-authenticate'), scheme).toMatch(/^Bearer error="invalid_token"/);
    }
  });

  it('the token endpoint refuses the bound client without a proof', async () => {
    const { url, checks } = await callback();
    // the provider says no more than invalid_grant; the same code with the proof then works
    await expect(oidcClient.authorizationCodeGrant(config, url, checks)).rejects.toMatchObject({ error: 'invalid_grant' });
    const tokens = await oidcClient.authorizationCodeGrant(config, url, checks, undefined, { DPoP });
    expect(tokens.token_type.toLowerCase()).toBe('dpop');
  });
});

describe('a PAR-only client (require_pushed_authorization_requests, from the catalogue)', () => {
  const redirect = 'http://127.0.0.1:8125/media/callback';
  const secret = 'media-secret-media-secret-media-123';
  let config: oidcClient.Configuration;

  beforeAll(async () => {
    await portal.services.db.query(`UPDATE apps SET oidc_metadata = $1 WHERE client_id = 'media-library'`, [
      JSON.stringify({
        client_secret: secret,
        client_name: 'Media library',
        redirect_uris: [redirect],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
        require_pushed_authorization_requests: true,
        dpop_bound_access_tokens: true,
      }),
    ]);
    config = await discover(portal, 'media-library', secret);
  });

  it('is refused at /connect/authorize without a request_uri', async () => {
    const start = await startAuthorization(config, redirect);
    const res = await browser.get(start.url.toString());
    // the redirect_uri is the client's own: the error goes back to it
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(redirect);
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('error_description')).toMatch(/pushed authorization request must be used/i);
  });

  it('signs in through PAR, with DPoP-bound tokens', async () => {
    const DPoP = oidcClient.getDPoPHandle(config, await oidcClient.randomDPoPKeyPair());
    const codeVerifier = oidcClient.randomPKCECodeVerifier();
    const state = oidcClient.randomState();
    const url = await oidcClient.buildAuthorizationUrlWithPAR(
      config,
      {
        redirect_uri: redirect,
        scope: 'openid email',
        code_challenge: await oidcClient.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
        state,
      },
      { DPoP },
    );
    expect(url.searchParams.get('request_uri')).toMatch(/^urn:ietf:params:oauth:request_uri:/);
    const callback = await followUntil(browser, url.toString(), redirect);
    const tokens = await oidcClient.authorizationCodeGrant(
      config,
      new URL(callback),
      { pkceCodeVerifier: codeVerifier, expectedState: state },
      undefined,
      { DPoP },
    );
    expect(tokens.token_type.toLowerCase()).toBe('dpop');
    expect(tokens.claims()!.sub).toBe(portal.adminUserId);
  });
});
