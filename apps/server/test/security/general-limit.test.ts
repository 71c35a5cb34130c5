import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPortal, type TestPortal } from '../support/portal.js';

/**
 * The general request limit (docs/security.md, "Limits and thresholds"): per session for
 * signed-in requests, per address only for anonymous ones, and on the OpenID Connect endpoints
 * under /connect as well as on /api.
 */
let portal: TestPortal;
beforeAll(async () => (portal = await startPortal({ RATE_LIMIT_MAX: '5', RATE_LIMIT_SESSION_MAX: '8', RATE_LIMIT_WINDOW_SECONDS: '60' })));
afterAll(() => portal?.close());

describe('the general limit', () => {
  it('counts each session on its own: two colleagues on one address each get their allowance', async () => {
    const first = await portal.sessionFor(portal.adminUserId);
    const second = await portal.sessionFor(portal.adminUserId);
    const firstStatuses: number[] = [];
    for (let i = 0; i < 9; i++) firstStatuses.push((await first.get('/api/identity/user-info')).status);
    expect(firstStatuses).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 429]);
    // the other session, from the same address, is not affected
    for (let i = 0; i < 8; i++) expect((await second.get('/api/identity/user-info')).status).toBe(200);
    // nor are anonymous requests of that address
    expect((await portal.client().get('/api/portal/configuration')).status).toBe(200);
  });

  it('counts a made-up session cookie as anonymous (it cannot buy a fresh allowance)', async () => {
    const fresh = await startPortal({ RATE_LIMIT_MAX: '5', RATE_LIMIT_WINDOW_SECONDS: '60' });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 7; i++) {
        const client = fresh.client();
        client.cookies.set('pp_session', `made-up-${i}`);
        statuses.push((await client.get('/api/portal/configuration')).status);
      }
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    } finally {
      await fresh.close();
    }
  });

  it('limits /connect/token, revocation, introspection and registration too', async () => {
    const fresh = await startPortal({ RATE_LIMIT_MAX: '5', RATE_LIMIT_WINDOW_SECONDS: '60' });
    try {
      const client = fresh.client();
      const form = { raw: 'grant_type=authorization_code&code=x&client_id=nobody', contentType: 'application/x-www-form-urlencoded' };
      const paths = ['/connect/token', '/connect/revocation', '/connect/introspect', '/connect/dcr', '/connect/token'];
      for (const path of paths) expect((await client.request('POST', path, form)).status).not.toBe(429);
      for (const path of paths) {
        const res = await client.request('POST', path, form);
        expect(res.status, path).toBe(429);
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(res.body.i18NTranslationKey).toBe('too_many_requests');
      }
    } finally {
      await fresh.close();
    }
  });
});
