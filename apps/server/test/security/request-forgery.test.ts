import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { NO_LOGIN_LIMITS, startPortal } from '../support/portal.js';
import { apiRoutes, fillPath } from './support/routes.js';
import { buildWorld, USER_PASSWORD } from './support/world.js';

/**
 * Forged requests: the anti-forgery header on every /api route (docs/product.md, "Calls": refused with 403
 * before any other processing), open redirects after login, and links in e-mails built from a
 * forged Host header.
 */
const portal = await startPortal(NO_LOGIN_LIMITS);
const world = await buildWorld(portal);
const routes = await apiRoutes(portal.app);
afterAll(async () => {
  await portal.close();
});

/** The two browser navigations of the external login, protected by state and nonce instead, and a support session's start (by its random id, of the caller's own session). */
const CSRF_EXEMPT = new Set([
  'GET /api/identity/challenge-external-login',
  'GET /api/identity/login-external-callback',
  'GET /api/support-sessions/{supportSessionId}/start',
]);

describe('anti-forgery header', () => {
  it('every /api route refuses a signed-in request without X-CSRF: 1 with 403, and changes nothing', async () => {
    const admin = await portal.sessionFor(portal.adminUserId);
    const auditBefore = (await portal.services.db.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_log')).rows[0]!.n;
    const failures: string[] = [];
    for (const route of routes) {
      if (CSRF_EXEMPT.has(route.key)) continue;
      const organization = await world.fresh.organization();
      const member = await world.fresh.member();
      const invitation = await world.fresh.invitation();
      const path = fillPath(route.path, {
        organizationId: organization.id,
        memberId: member.membershipId,
        invitationId: invitation.id,
        userId: member.userId,
        sessionId: 'any-session',
        batchId: '00000000-0000-4000-8000-000000000000',
        passkeyId: randomUUID(),
        supportSessionId: randomUUID(),
        // an access request's id (the header is checked before anything is looked up)
        id: randomUUID(),
        domain: 'dealer.example',
        serviceAccountId: randomUUID(),
        tokenId: randomUUID(),
        connectionId: randomUUID(),
        webhookId: randomUUID(),
        deliveryId: randomUUID(),
        streamId: randomUUID(),
        linkId: randomUUID(),
        token: 'not-a-setup-link',
      });
      for (const header of [undefined, '0', 'true']) {
        const res = await admin.request(route.method, path, {
          csrf: false,
          headers: header === undefined ? {} : { 'x-csrf': header },
          ...(route.method === 'GET' || route.method === 'DELETE'
            ? {}
            : { raw: 'name=x&email=a%40b.c', contentType: 'application/x-www-form-urlencoded' }),
        });
        if (res.status !== 403 || (res.body as { i18NTranslationKey?: string }).i18NTranslationKey !== 'csrf_header_missing') {
          failures.push(`${route.key} (x-csrf: ${header ?? 'absent'}) → ${res.status} ${res.text.slice(0, 120)}`);
        }
      }
    }
    expect(failures).toEqual([]);
    const auditAfter = (await portal.services.db.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_log')).rows[0]!.n;
    expect(auditAfter).toBe(auditBefore);
    expect(await (await portal.sessionFor(portal.adminUserId)).get('/api/identity/user-info').then((r) => r.status)).toBe(200);
  });
});

describe('open redirects', () => {
  const EVIL = [
    'https://evil.example/steal',
    '//evil.example/x',
    '/\\evil.example',
    '\\\\evil.example',
    'javascript:alert(1)',
    'https:evil.example',
    '/%2F%2Fevil.example',
    ' //evil.example',
  ];

  // an encoded path such as /%2F%2Fevil.example is a path on the portal's own origin, so it may come back
  it('login never hands back a return address outside the portal or its registered clients', async () => {
    const failures: string[] = [];
    for (const target of EVIL) {
      for (const field of ['return_path', 'return_url'] as const) {
        const res = await portal
          .client()
          .post('/api/identity/login', { email: world.users.member.email, password: USER_PASSWORD, [field]: target });
        const url = (res.body as { valid_return_url?: string | null }).valid_return_url ?? null;
        if (res.status >= 500) failures.push(`${field}=${target} → ${res.status}`);
        else if (
          url !== null &&
          (!url.startsWith('/') || url.startsWith('//') || url.includes('\\') || (field === 'return_url' && /evil\.example/.test(url)))
        )
          failures.push(`${field}=${target} → valid_return_url ${url}`);
      }
      const emailLogin = await portal.client().post('/api/identity/email-login', { email: world.users.member.email, return_url: target });
      const url = (emailLogin.body as { valid_return_url?: string | null }).valid_return_url ?? null;
      if (emailLogin.status >= 500 || (url !== null && /evil\.example|javascript:/.test(url)))
        failures.push(`email-login return_url=${target} → ${emailLogin.status} ${url}`);
    }
    expect(failures).toEqual([]);
  });

  it('a same-origin return path is kept', async () => {
    const res = await portal
      .client()
      .post('/api/identity/login', { email: world.users.member.email, password: USER_PASSWORD, return_path: '/profile?tab=1' });
    expect(res.status).toBe(200);
    expect(res.body.valid_return_url).toBe('/profile?tab=1');
  });
});

describe('links in e-mails', () => {
  it('come from PUBLIC_URL, whatever Host or X-Forwarded-Host the request carried', async () => {
    const member = await world.fresh.member();
    const res = await portal
      .client()
      .post(
        '/api/identity/forgot-password',
        { email_address: member.email },
        { headers: { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https', forwarded: 'host=evil.example;proto=https' } },
      );
    expect(res.status).toBe(204);
    const mail = await portal.smtp.waitFor(member.email);
    expect(mail.links.length).toBeGreaterThan(0);
    for (const link of mail.links.filter((l) => l.includes('reset-password'))) expect(new URL(link).origin).toBe(portal.config.publicUrl);
    expect(mail.text + mail.html).not.toContain('evil.example');

    // a raw request with a forged Host header (fetch would not send one)
    const { request } = await import('node:http');
    const second = await world.fresh.member();
    const body = JSON.stringify({ email_address: second.email });
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: new URL(portal.url).port,
          method: 'POST',
          path: '/api/identity/forgot-password',
          headers: { host: 'evil.example', 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-csrf': '1' },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
    expect(status).toBe(204);
    const mail2 = await portal.smtp.waitFor(second.email);
    for (const link of mail2.links) expect(new URL(link).origin).toBe(portal.config.publicUrl);
  });
});
