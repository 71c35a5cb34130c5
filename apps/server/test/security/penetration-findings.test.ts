import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { startPortal } from '../support/portal.js';
import { DCR_TOKEN, registerClient } from '../oidc/support.js';
import { buildWorld, USER_PASSWORD } from './support/world.js';

/**
 * The findings of the penetration test that are not about delegation (docs/security.md, "Threats
 * and their tests"): NUL bytes at the OpenID Connect endpoints, protocol-relative return paths,
 * reset-link validation that tells users apart, request ids chosen by the caller, the
 * Permissions-Policy header, and security tests that skipped themselves.
 */
const portal = await startPortal({
  DCR_INITIAL_ACCESS_TOKEN: DCR_TOKEN,
  LOGIN_RATE_LIMIT_PER_ACCOUNT: '100000',
  LOGIN_RATE_LIMIT_PER_IP: '100000',
});
const world = await buildWorld(portal);
afterAll(async () => {
  await portal.close();
});

describe('NUL bytes at /connect', () => {
  it('no parameter of the authorization, token, revocation or introspection endpoints gives a 5xx', async () => {
    const client = await registerClient(portal);
    const redirect = String(client.redirect_uris[0]);
    const failures: string[] = [];
    const check = (what: string, status: number, text: string) => {
      if (status >= 500) failures.push(`${what} → ${status} ${text.slice(0, 160)}`);
    };
    const authorize: Record<string, string>[] = [
      { client_id: 'abc\0', response_type: 'code', scope: 'openid' },
      { client_id: String(client.client_id), response_type: 'code', scope: 'openid\0', redirect_uri: redirect },
      { client_id: String(client.client_id), response_type: 'code', scope: 'openid', redirect_uri: `${redirect}\0` },
      {
        client_id: String(client.client_id),
        response_type: 'code',
        scope: 'openid',
        redirect_uri: redirect,
        code_challenge: 'a'.repeat(43),
        code_challenge_method: 'S256',
        state: 's\0',
        nonce: 'n\0',
        login_hint: 'x\0@example.com',
        ui_locales: 'nl\0',
      },
    ];
    for (const params of authorize) {
      const res = await fetch(`${portal.url}/connect/authorize?${new URLSearchParams(params).toString()}`, { redirect: 'manual' });
      check(`GET /connect/authorize ${JSON.stringify(params)}`, res.status, await res.text());
    }
    const forms: [string, Record<string, string>][] = [
      [
        '/connect/token',
        {
          grant_type: 'authorization_code',
          code: '\0',
          client_id: String(client.client_id),
          redirect_uri: redirect,
          code_verifier: 'v'.repeat(43),
        },
      ],
      ['/connect/token', { grant_type: 'authorization_code', code: 'abc', client_id: '\0' }],
      ['/connect/token', { grant_type: 'refresh_token', refresh_token: '\0', client_id: String(client.client_id) }],
      ['/connect/token', { grant_type: 'refresh_token', refresh_token: 'x\0y', client_id: String(client.client_id) }],
      ['/connect/token', { grant_type: '\0', client_id: String(client.client_id) }],
      ['/connect/token/revocation', { token: '\0', client_id: String(client.client_id) }],
      ['/connect/token/introspection', { token: '\0', client_id: String(client.client_id) }],
    ];
    for (const [path, form] of forms) {
      const res = await fetch(`${portal.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(form).toString(),
      });
      check(`POST ${path} ${JSON.stringify(form)}`, res.status, await res.text());
    }
    for (const path of [
      '/connect/interaction/%00',
      '/connect/auth/%00',
      '/connect/session/end?client_id=%00',
      '/connect/userinfo?access_token=%00',
    ]) {
      const res = await fetch(`${portal.url}${path}`, { redirect: 'manual' });
      check(`GET ${path}`, res.status, await res.text());
    }
    const bearer = await fetch(`${portal.url}/connect/userinfo`, { headers: { authorization: 'Bearer a%00' } });
    check('GET /connect/userinfo with a NUL token', bearer.status, await bearer.text());
    expect(failures).toEqual([]);
  });
});

describe('return paths', () => {
  it('never hands back a path that is protocol-relative after normalisation', async () => {
    for (const path of ['/.//evil.example', '/a/..//evil.example', '/./\\evil.example', '/%2F%2Fevil.example', '/%2f%5cevil.example']) {
      const res = await portal
        .client()
        .post('/api/identity/login', { email: world.users.member.email, password: USER_PASSWORD, return_path: path });
      expect(res.status, path).toBe(200);
      expect(res.body.valid_return_url, path).toBeNull();
    }
    const fine = await portal
      .client()
      .post('/api/identity/login', { email: world.users.member.email, password: USER_PASSWORD, return_path: '/a/./b/../profile?x=1' });
    expect(fine.body.valid_return_url).toBe('/a/profile?x=1');
  });
});

describe('reset links', () => {
  it('validation answers an unknown user exactly like a known one with a wrong code', async () => {
    const known = await portal
      .client()
      .post('/api/identity/validate-reset-token', { user_id: world.users.member.id, token: 'not-the-code' });
    const unknown = await portal
      .client()
      .post('/api/identity/validate-reset-token', { user_id: '00000000-0000-4000-8000-000000000000', token: 'not-the-code' });
    const malformed = await portal.client().post('/api/identity/validate-reset-token', { user_id: 'not-a-uuid', token: 'not-the-code' });
    expect(known.status).toBe(200);
    for (const res of [unknown, malformed]) {
      expect(res.status).toBe(known.status);
      expect(res.body).toEqual(known.body);
      expect(res.body).toEqual({ is_valid: false, reset_token: null });
    }
  });
});

describe('request ids', () => {
  it('are generated by the server: a caller’s X-Request-Id is neither answered nor audited as the id', async () => {
    const admin = await portal.sessionFor(portal.adminUserId);
    const res = await admin.post(
      '/api/organizations',
      { parent_organization_id: world.partner.id, name: `Request id ${Date.now()}`, client_ids: [] },
      { headers: { 'x-request-id': 'attacker-chosen-id' } },
    );
    expect(res.status).toBe(201);
    const id = res.headers.get('x-request-id');
    expect(id).toBeTruthy();
    expect(id).not.toBe('attacker-chosen-id');
    const { rows } = await portal.services.db.query<{ request_id: string }>(
      "SELECT request_id FROM audit_log WHERE action = 'organization.create' AND target_id = $1",
      [res.body.id],
    );
    expect(rows[0]?.request_id).toBe(id);
    const again = await portal.client().get('/health', { headers: { 'x-request-id': 'attacker-chosen-id' } });
    expect(again.headers.get('x-request-id')).not.toBe('attacker-chosen-id');
    expect(again.headers.get('x-request-id')).not.toBe(id);
  });
});

describe('security headers', () => {
  it('send a Permissions-Policy that turns off the browser features the portal does not use', async () => {
    for (const path of ['/', '/api/portal/configuration', '/.well-known/openid-configuration']) {
      const res = await portal.client().get(path);
      const policy = res.headers.get('permissions-policy') ?? '';
      for (const feature of ['camera=()', 'microphone=()', 'geolocation=()', 'payment=()', 'usb=()'])
        expect(policy, `${path}: ${policy}`).toContain(feature);
      // passkeys work on the portal's own pages, and only there
      for (const feature of ['publickey-credentials-create=(self)', 'publickey-credentials-get=(self)'])
        expect(policy, `${path}: ${policy}`).toContain(feature);
    }
  });
});

describe('the security tests themselves', () => {
  it('never skip: a test whose route is missing fails instead; a suite that needs PostgreSQL says so in the summary', () => {
    const root = fileURLToPath(new URL('../../../../', import.meta.url));
    // the one module that may skip, and only with a reason the summary prints
    const allowed = ['apps/server/test/support/needs.ts'];
    const files: string[] = [];
    const walk = (dir: string, all: boolean) => {
      for (const name of readdirSync(dir)) {
        if (name === 'node_modules' || name === 'dist') continue;
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path, all || /^test|^e2e$/.test(name));
        else if (/\.test\.tsx?$/.test(name) || (all && /\.tsx?$/.test(name))) files.push(path);
      }
    };
    for (const dir of ['apps', 'packages', 'e2e']) walk(join(root, dir), dir === 'e2e');
    expect(files.length).toBeGreaterThan(10);
    // it.skip, describe.skipIf, describe.runIf, test.todo, it.only, ctx.skip, each with its call or its .each
    const skipping = /\w\.(skip|skipIf|runIf|todo|only)\s*[(.]/;
    const offenders = files
      .map((f) => relative(root, f).split('\\').join('/'))
      .filter((f) => !allowed.includes(f) && skipping.test(readFileSync(join(root, f), 'utf8')));
    expect(offenders).toEqual([]);
  });
});
