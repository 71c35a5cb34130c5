import { decodeJwt } from 'jose';
import * as oidcClient from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLogoutReceiver, type LogoutReceiver } from '../support/logout-receiver.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startPortal, type TestPortal } from '../support/portal.js';
import { DCR_TOKEN, discover, followUntil, formInputs, loginThroughPortal, redeemCode, startAuthorization } from './support.js';

/**
 * Clients: Dynamic Client Registration (RFC 7591) with its management (RFC 7592), guarded by the
 * initial access token; the app catalogue's clients with the rights claim of their section; and
 * front- and back-channel logout for clients that register them.
 */
let portal: TestPortal;
let receiver: LogoutReceiver;

beforeAll(async () => {
  portal = await startPortal({ DCR_INITIAL_ACCESS_TOKEN: DCR_TOKEN, LOGIN_RATE_LIMIT_PER_ACCOUNT: '1000' });
  receiver = await startLogoutReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await portal?.close();
});

const dcr = (body: unknown, token?: string) =>
  fetch(`${portal.url}/connect/dcr`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
const metadata = { redirect_uris: ['http://127.0.0.1:8123/callback'], token_endpoint_auth_method: 'none', application_type: 'native' };

describe('Dynamic Client Registration at /connect/dcr', () => {
  it('refuses a registration without the initial access token (401)', async () => {
    expect((await dcr(metadata)).status).toBe(401);
  });

  it('refuses a registration with a wrong token (401)', async () => {
    expect((await dcr(metadata, 'not-the-token-at-all-nope')).status).toBe(401);
  });

  it('registers with the token (201) and manages the client with its registration access token (RFC 7592)', async () => {
    const res = await dcr({ ...metadata, client_name: 'Managed' }, DCR_TOKEN);
    expect(res.status).toBe(201);
    const client = (await res.json()) as Record<string, any>;
    expect(client.client_id).toBeTruthy();
    expect(client.registration_access_token).toBeTruthy();
    expect(client.registration_client_uri).toBe(`${portal.url}/connect/dcr/${client.client_id}`);
    const auth = { authorization: `Bearer ${client.registration_access_token}` };
    const read = await fetch(client.registration_client_uri, { headers: auth });
    expect(read.status).toBe(200);
    const readBody = (await read.json()) as Record<string, any>;
    expect(readBody.client_name).toBe('Managed');
    const update = await fetch(client.registration_client_uri, {
      method: 'PUT',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ ...metadata, client_id: client.client_id, client_name: 'Renamed' }),
    });
    expect(update.status).toBe(200);
    const updated = (await update.json()) as Record<string, any>;
    expect(updated.client_name).toBe('Renamed');
    // the registration access token rotates on update
    const newAuth = { authorization: `Bearer ${updated.registration_access_token ?? client.registration_access_token}` };
    const removed = await fetch(client.registration_client_uri, { method: 'DELETE', headers: newAuth });
    expect(removed.status).toBe(204);
    const { rows } = await portal.services.db.query("SELECT 1 FROM oidc_payloads WHERE model = 'Client' AND id = $1", [client.client_id]);
    expect(rows).toHaveLength(0);
  });

  it('is closed (401) when DCR_INITIAL_ACCESS_TOKEN is not configured', async () => {
    const closed = await startPortal();
    try {
      const res = await fetch(`${closed.url}/connect/dcr`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${DCR_TOKEN}` },
        body: JSON.stringify(metadata),
      });
      expect(res.status).toBe(401);
    } finally {
      await closed.close();
    }
  }, 120_000);
});

describe('a catalogue client (apps.oidc_metadata)', () => {
  const redirect = 'http://127.0.0.1:8124/loyalty/callback';
  const loggedOut = 'http://127.0.0.1:8124/loyalty/logged-out';
  let config: oidcClient.Configuration;

  beforeAll(async () => {
    await portal.services.db.query(`UPDATE apps SET oidc_metadata = $1 WHERE client_id = 'loyalty-app'`, [
      JSON.stringify({
        client_secret: 'loyalty-secret-loyalty-secret-123',
        client_name: 'Loyalty & Trade-in',
        redirect_uris: [redirect],
        post_logout_redirect_uris: [loggedOut],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
        backchannel_logout_uri: `${receiver.url}/backchannel`,
        frontchannel_logout_uri: `${receiver.url}/frontchannel`,
      }),
    ]);
    await portal.services.db.query(
      `UPDATE memberships SET rights = jsonb_set(rights, '{loyalty}', '{"user_access": true, "user_request_manager": true}') WHERE user_id = $1`,
      [portal.adminUserId],
    );
    config = await discover(portal, 'loyalty-app', 'loyalty-secret-loyalty-secret-123');
  });

  it('signs in with the rights of its section, and introspects its token', async () => {
    const browser = portal.client();
    const start = await startAuthorization(config, redirect);
    const { callback, context } = await loginThroughPortal(browser, start.url, redirect, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    expect(context.client).toEqual({ client_id: 'loyalty-app', client_name: 'Loyalty & Trade-in' });
    const tokens = await redeemCode(config, start, callback);
    const rights = tokens.claims()!.rights as Record<string, boolean>;
    expect(rights.user_access).toBe(true);
    expect(rights.user_request_manager).toBe(true);
    expect(rights.global_full_permission).toBe(false);
    expect(rights).not.toHaveProperty('user_user_manager'); // another app's section is not released
    const introspection = await oidcClient.tokenIntrospection(config, tokens.access_token);
    expect(introspection).toMatchObject({ active: true, sub: portal.adminUserId, client_id: 'loyalty-app' });

    // RP-initiated logout with front-channel (iframe_url) and back-channel (logout token) logout
    const endSession = oidcClient.buildEndSessionUrl(config, { id_token_hint: tokens.id_token!, post_logout_redirect_uri: loggedOut });
    const logoutPage = await followUntil(browser, endSession.toString(), `${portal.url}/logout`);
    const logoutId = new URL(logoutPage).searchParams.get('logoutId');
    const res = await browser.post('/api/identity/logout', { logoutId });
    expect(res.body.iframe_url).toMatch(/\/connect\/logout\/frontchannel\?logoutId=/);
    const frames = await browser.get(res.body.iframe_url);
    expect(frames.status).toBe(200);
    const src = /<iframe src="([^"]+)"/.exec(frames.text)![1]!.replace(/&amp;/g, '&');
    const frontchannel = new URL(src);
    expect(`${frontchannel.origin}${frontchannel.pathname}`).toBe(`${receiver.url}/frontchannel`);
    expect(frontchannel.searchParams.get('iss')).toBe(portal.url);
    const sid = frontchannel.searchParams.get('sid');
    expect(sid).toBeTruthy();
    expect(frames.headers.get('content-security-policy')).toContain("frame-ancestors 'self'");

    const page = await browser.get(res.body.post_logout_redirect_uri);
    const form = formInputs(page.text);
    const confirm = await browser.request('POST', form.action, {
      raw: new URLSearchParams(form.inputs).toString(),
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(confirm.status).toBe(303);
    expect(confirm.headers.get('location')).toBe(loggedOut);
    // the logout token leaves through the outbox
    await portal.outboxSettled();
    expect(receiver.tokens).toHaveLength(1);
    const logoutToken = decodeJwt(receiver.tokens[0]!);
    expect(logoutToken).toMatchObject({ iss: portal.url, aud: 'loyalty-app', sub: portal.adminUserId });
    expect(logoutToken.events).toHaveProperty(['http://schemas.openid.net/event/backchannel-logout']);
  });

  it('a portal logout (no logoutId) also logs the clients out: iframe_url and a back-channel logout token', async () => {
    const browser = await portal.sessionFor(portal.adminUserId);
    const start = await startAuthorization(config, redirect);
    await followUntil(browser, start.url.toString(), redirect);
    const before = receiver.tokens.length;
    const res = await browser.post('/api/identity/logout', {});
    expect(res.status).toBe(200);
    expect(res.body.post_logout_redirect_uri).toBeNull();
    expect(res.body.iframe_url).toMatch(/\/connect\/logout\/frontchannel\?logoutId=/);
    const frames = await browser.get(res.body.iframe_url);
    expect(frames.text).toContain(`${receiver.url}/frontchannel?iss=`);
    await portal.outboxSettled();
    expect(receiver.tokens.length).toBe(before + 1);
    expect((await browser.get('/api/identity/user-info')).status).toBe(401);
  });

  it('a return_url registered by a client is an allowed return address', async () => {
    const res = await portal.client().post('/api/identity/email-login', { email: ADMIN_EMAIL, return_url: loggedOut });
    expect(res.status).toBe(200);
    expect(res.body.valid_return_url).toBe(loggedOut);
  });
});
