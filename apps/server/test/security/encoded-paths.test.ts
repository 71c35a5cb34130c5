import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPortal, type TestPortal } from '../support/portal.js';

/**
 * Percent-encoded paths (docs/security.md, "Threats and their tests"): the router decodes a path
 * before matching it, so `/%61pi/organizations` is `/api/organizations`. The anti-forgery check
 * and the limits must read the path the same way, or an encoded spelling walks past them.
 */
const SPELLINGS = ['/%61pi', '/ap%69', '/%61%70%69'];

describe('the anti-forgery check on percent-encoded paths', () => {
  let portal: TestPortal;
  beforeAll(async () => (portal = await startPortal()));
  afterAll(() => portal?.close());

  it.each(SPELLINGS)('POST %s/organizations without X-CSRF is refused with 403 and creates nothing', async (prefix) => {
    const admin = await portal.sessionFor(portal.adminUserId);
    const before = (await portal.services.db.query<{ n: number }>('SELECT count(*)::int AS n FROM organizations')).rows[0]!.n;
    const res = await admin.post(
      `${prefix}/organizations`,
      { parent_organization_id: portal.rootOrganizationId, name: `Forged ${prefix}`, client_ids: [], can_create_sub_organization: false },
      { csrf: false },
    );
    expect(res.status).toBe(403);
    expect(res.body.i18NTranslationKey).toBe('csrf_header_missing');
    const after = (await portal.services.db.query<{ n: number }>('SELECT count(*)::int AS n FROM organizations')).rows[0]!.n;
    expect(after).toBe(before);
  });

  it.each(SPELLINGS)('POST %s/identity/logout without X-CSRF does not end the session', async (prefix) => {
    const admin = await portal.sessionFor(portal.adminUserId);
    const res = await admin.post(`${prefix}/identity/logout`, undefined, { csrf: false });
    expect(res.status).toBe(403);
    expect((await admin.get('/api/identity/user-info')).status).toBe(200);
  });

  it('the same call with X-CSRF still works through an encoded path (the router decodes it)', async () => {
    const admin = await portal.sessionFor(portal.adminUserId);
    const res = await admin.get('/%61pi/identity/user-info', { headers: { 'x-csrf': '1' } });
    expect(res.status).toBe(200);
  });
});

describe('the general limit on percent-encoded paths', () => {
  let portal: TestPortal;
  beforeAll(async () => (portal = await startPortal({ RATE_LIMIT_MAX: '5', RATE_LIMIT_WINDOW_SECONDS: '60' })));
  afterAll(() => portal?.close());

  it('encoded spellings of /api count against the same limit and are refused past it', async () => {
    const client = portal.client();
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const prefix = SPELLINGS[i % SPELLINGS.length]!;
      statuses.push((await client.get(`${prefix}/portal/configuration`, { headers: { 'x-csrf': '1' } })).status);
    }
    expect(statuses.slice(0, 5).every((s) => s !== 429)).toBe(true);
    expect(statuses.slice(5)).toEqual([429, 429, 429, 429, 429, 429, 429]);
  });
});
