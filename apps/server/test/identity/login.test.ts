import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashSecret } from '../../src/http/session.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, NO_LOGIN_LIMITS, startPortal, type TestPortal } from '../support/portal.js';
import { createUser, setCookieLine, type TestUser } from './support.js';

/** Login, logout, user-info and the login helpers (context, errors) over HTTP. */
let portal: TestPortal;
let user: TestUser;

beforeAll(async () => {
  // throttling has its own test file; here many logins of one account must pass
  portal = await startPortal(NO_LOGIN_LIMITS);
  user = await createUser(portal);
});
afterAll(() => portal?.close());

describe('GET /api/identity/user-info', () => {
  it('is a 401 problem without a session', async () => {
    const res = await portal.client().get('/api/identity/user-info');
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(res.body).toMatchObject({ status: 401, i18NTranslationKey: 'unauthorized' });
  });

  it('returns the contract fields for a session made directly', async () => {
    const client = await portal.sessionFor(portal.adminUserId);
    const res = await client.get('/api/identity/user-info');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: portal.adminUserId,
      email: ADMIN_EMAIL,
      firstName: 'Portal',
      lastName: 'Administrator',
      fullName: 'Portal Administrator',
      languageCode: 'en',
      organizationId: portal.rootOrganizationId,
      organizationName: 'Nedap',
      organizationPath: 'nedap',
      userManager: true,
      organizationManager: true,
      externalIdentityProvider: null,
      isDeveloper: true,
      manageUsersOrOrganizations: true,
      // added by the portal: the user's own rights, for the rights editor
      rights: expect.objectContaining({ global_full_permission: false }),
    });
    expect(res.body.rights.partner_portal).toMatchObject({ nedap_user_full_permission: true, developer: true });
  });
});

describe('POST /api/identity/email-login', () => {
  it('says password login for a native account and for an unknown address alike', async () => {
    const known = await portal.client().post('/api/identity/email-login', { email: user.email });
    const unknown = await portal.client().post('/api/identity/email-login', { email: 'nobody@example.com' });
    expect(known.status).toBe(200);
    expect(known.body).toEqual({ error: null, valid_return_url: null, external_login: null });
    expect(unknown.body).toEqual(known.body);
  });

  it('requires the e-mail address', async () => {
    const res = await portal.client().post('/api/identity/email-login', { email: '' });
    expect(res.status).toBe(400);
    expect(res.body.errors.email[0].translation_key).toBe('fill_all_required_fields');
  });
});

describe('POST /api/identity/login', () => {
  it('signs in: an HttpOnly SameSite=Lax session cookie of at least 128 bits, user-info works', async () => {
    const client = portal.client();
    const res = await client.post('/api/identity/login', { email: user.email, password: user.password });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ error: null, valid_return_url: null, external_login: null });
    const line = setCookieLine(res.headers, 'pp_session')!;
    expect(line).toMatch(/HttpOnly/i);
    expect(line).toMatch(/SameSite=Lax/i);
    expect(line).not.toMatch(/Max-Age/i); // a session cookie without "remember"
    expect(line).not.toMatch(/Secure/i); // http in tests; Secure on https
    expect(Buffer.from(client.cookies.get('pp_session')!, 'base64url').length).toBeGreaterThanOrEqual(16);
    const me = await client.get('/api/identity/user-info');
    expect(me.body.email).toBe(user.email);
  });

  it('is case-insensitive on the e-mail address and trims it', async () => {
    const res = await portal.client().post('/api/identity/login', { email: `  ${user.email.toUpperCase()} `, password: user.password });
    expect(res.status).toBe(200);
  });

  it('remember makes a persistent cookie', async () => {
    const res = await portal.client().post('/api/identity/login', { email: user.email, password: user.password, remember: true });
    expect(setCookieLine(res.headers, 'pp_session')).toMatch(/Max-Age=\d+/i);
  });

  it('rotates the session id at login: the previous session ends', async () => {
    const client = await portal.sessionFor(user.id);
    const before = client.cookies.get('pp_session')!;
    const res = await client.post('/api/identity/login', { email: user.email, password: user.password });
    expect(res.status).toBe(200);
    expect(client.cookies.get('pp_session')).not.toBe(before);
    const { rows } = await portal.services.db.query('SELECT 1 FROM sessions WHERE id_hash = $1', [hashSecret(before)]);
    expect(rows).toHaveLength(0);
  });

  it('answers the same invalid_login for a wrong password and for an unknown e-mail', async () => {
    const wrong = await portal.client().post('/api/identity/login', { email: user.email, password: 'Wrong-Passw0rd!' });
    const unknown = await portal.client().post('/api/identity/login', { email: 'nobody@example.com', password: 'Wrong-Passw0rd!' });
    expect(wrong.status).toBe(400);
    expect(unknown.status).toBe(400);
    expect(wrong.body.i18NTranslationKey).toBe('invalid_login');
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.headers.get('set-cookie')).toBeNull();
  });

  it('an account without a password (external) cannot log in with one', async () => {
    const external = await createUser(portal, { password: null, externalIdp: 'external' });
    const res = await portal.client().post('/api/identity/login', { email: external.email, password: 'Anything-1!' });
    expect(res.status).toBe(400);
    expect(res.body.i18NTranslationKey).toBe('invalid_login');
  });

  it('requires e-mail and password (fill_all_required_fields)', async () => {
    const res = await portal.client().post('/api/identity/login', { email: '', password: '' });
    expect(res.status).toBe(400);
    expect(res.body.errors.email[0].translation_key).toBe('fill_all_required_fields');
    expect(res.body.errors.password[0].translation_key).toBe('fill_all_required_fields');
    const long = await portal.client().post('/api/identity/login', { email: user.email, password: 'x'.repeat(129) });
    expect(long.status).toBe(400);
  });

  it('returns a same-origin return_path, never another origin', async () => {
    const ok = await portal
      .client()
      .post('/api/identity/login', { email: user.email, password: user.password, return_path: '/profile?x=1' });
    expect(ok.body.valid_return_url).toBe('/profile?x=1');
    for (const evil of ['//evil.example.com/x', 'https://evil.example.com/', '/\\evil.example.com', 'javascript:alert(1)']) {
      const res = await portal.client().post('/api/identity/login', { email: user.email, password: user.password, return_path: evil });
      expect(res.status).toBe(200);
      expect(res.body.valid_return_url).toBeNull();
    }
  });

  it('refuses a return_url that is neither an interaction of this provider nor a registered client address', async () => {
    const res = await portal
      .client()
      .post('/api/identity/login', { email: user.email, password: user.password, return_url: 'https://evil.example.com/' });
    expect(res.status).toBe(400);
    expect(res.body.errors.return_url[0].translation_key).toBe('invalid_return_url');
    expect(res.headers.get('set-cookie')).toBeNull();
  });

  it('answers interaction_expired (409) for an interaction that no longer exists', async () => {
    const res = await portal.client().post('/api/identity/login', {
      email: user.email,
      password: user.password,
      return_url: `${portal.url}/connect/interaction/doesnotexist`,
    });
    expect(res.status).toBe(409);
    expect(res.body.i18NTranslationKey).toBe('interaction_expired');
  });

  it('needs X-CSRF', async () => {
    const res = await portal.client().post('/api/identity/login', { email: user.email, password: user.password }, { csrf: false });
    expect(res.status).toBe(403);
  });
});

describe('GET /api/identity/context', () => {
  it('is all null without a ReturnUrl or for an unknown one', async () => {
    const empty = { login_hint: null, idp: null, tenant: null, scopes: null, client: null };
    expect((await portal.client().get('/api/identity/context')).body).toEqual(empty);
    expect((await portal.client().get(`/api/identity/context?returnUrl=${encodeURIComponent('https://evil.example.com')}`)).body).toEqual(
      empty,
    );
  });
});

describe('POST /api/identity/logout', () => {
  it('ends the session and removes the cookie', async () => {
    const client = portal.client();
    await client.post('/api/identity/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    expect((await client.get('/api/identity/user-info')).status).toBe(200);
    const res = await client.post('/api/identity/logout', { logoutId: null });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ iframe_url: null, post_logout_redirect_uri: null });
    expect(setCookieLine(res.headers, 'pp_session')).toMatch(/Expires=Thu, 01 Jan 1970|Max-Age=0/i);
    expect((await client.get('/api/identity/user-info')).status).toBe(401);
  });

  it('works without a session and with an unknown logoutId', async () => {
    const res = await portal.client().post('/api/identity/logout', { logoutId: 'unknown' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ iframe_url: null, post_logout_redirect_uri: null });
  });
});
