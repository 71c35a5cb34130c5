import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPortalWith, type TestPortal } from '../support/portal.js';
import { buildFixture, createMember, createOrg, rights, type Fixture } from '../organizations/fixtures.js';

let portal: TestPortal;
let f: Fixture;

beforeAll(async () => ({ portal, built: f } = await startPortalWith(buildFixture)));
afterAll(() => portal?.close());

const names = (tiles: any[]) => tiles.map((t) => t.name);

describe('GET /api/portal', () => {
  it('shows app tiles only with the app and access, tiles of no app to everyone, no management tile to plain members', async () => {
    const res = await f.plainA.client.get('/api/portal');
    expect(res.status).toBe(200);
    expect(names(res.body)).toEqual(['Remote support', 'Media library']);
    expect(res.body[1]).toEqual({
      name: 'Media library',
      description_i18_nkey: 'tile_media_library_description',
      uri: 'https://media.example.com/',
      icon: 'photo',
      coming_soon: false,
      router_path: null,
    });
  });

  it('needs the organization to have the app, whatever the rights say', async () => {
    const org = await createOrg(portal, f.tree.a, 'No Media', { apps: ['learnspace'] });
    const m = await createMember(
      portal,
      org,
      'nomedia',
      rights((r) => {
        r.media_library.user_access = true;
        r.academy.user_access = true;
      }),
    );
    expect(names((await m.client.get('/api/portal')).body)).toEqual(['Remote support', 'Academy']);
  });

  it('shows tiles with a required right only to holders of that right', async () => {
    const m = await createMember(
      portal,
      f.tree.north,
      'loyal',
      rights((r) => {
        r.loyalty.user_access = true;
        r.loyalty.user_request_manager = true;
      }),
    );
    const tiles = names((await m.client.get('/api/portal')).body);
    expect(tiles).toContain('Tag replacement');
    expect(tiles).toContain('Request management');
    expect(tiles).not.toContain('Business partners');
  });

  it('gives the user-management tile to managers, with its internal route', async () => {
    const res = await f.userMgrA.client.get('/api/portal');
    const tile = res.body.find((t: any) => t.router_path?.startsWith('/manage-organization/'));
    expect(tile).toMatchObject({ router_path: `/manage-organization/${f.tree.a.id}`, coming_soon: false });
    expect((await f.orgMgrA.client.get('/api/portal')).body.some((t: any) => t.router_path === `/manage-organization/${f.tree.a.id}`)).toBe(
      true,
    );
  });

  it('gives the provider’s staff every app they have rights for; coming-soon tiles are returned as such', async () => {
    const res = await f.admin.client.get('/api/portal');
    expect(res.status).toBe(200);
    const tiles = names(res.body);
    expect(tiles).toEqual(expect.arrayContaining(['Business partners', 'Articles and licence items', 'Import products', 'Control Tower']));
    expect(res.body.find((t: any) => t.name === 'Control Tower').coming_soon).toBe(true);
  });

  it('needs a login (401) and the X-CSRF header (403)', async () => {
    expect((await portal.client().get('/api/portal')).status).toBe(401);
    expect((await f.plainA.client.get('/api/portal', { csrf: false })).status).toBe(403);
  });
});

describe('notifications, features, profit calculator, configuration', () => {
  it('lists active notifications in the user’s language, with the fallback text', async () => {
    await portal.services.db.query(
      `INSERT INTO notifications (text, texts, active, starts_at, ends_at) VALUES
       ('Maintenance tonight', '{"nl":"Onderhoud vanavond"}', true, NULL, NULL),
       ('Old news', '{}', true, now() - interval '2 days', now() - interval '1 day'),
       ('Inactive', '{}', false, NULL, NULL),
       ('Only English', '{}', true, NULL, now() + interval '1 day')`,
    );
    const en = await f.plainA.client.get('/api/portal/notifications');
    expect(en.status).toBe(200);
    const texts = (body: any[]) => body.map((n) => n.text).sort();
    expect(texts(en.body)).toEqual(['Maintenance tonight', 'Only English']);
    const dutch = await createMember(portal, f.tree.a, 'dutch', rights(), { language: 'nl' });
    expect(texts((await dutch.client.get('/api/portal/notifications')).body)).toEqual(['Onderhoud vanavond', 'Only English']);
    expect((await portal.client().get('/api/portal/notifications')).status).toBe(401);
  });

  it('gives the feature flags', async () => {
    const res = await f.plainA.client.get('/api/portal/application/features');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      control_tower_enabled: false,
      control_tower_enabled_for_non_nedap_users: false,
      ordering_tools_enabled: true,
      ordering_tools_enabled_for_non_nedap_users: true,
    });
    expect((await portal.client().get('/api/portal/application/features')).status).toBe(401);
  });

  it('answers the profit calculator messages in the notifications shape', async () => {
    const res = await f.plainA.client.get('/api/portal/profit-calculator');
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    expect((await portal.client().get('/api/portal/profit-calculator')).status).toBe(401);
  });

  it('gives the site configuration without login', async () => {
    const res = await portal.client().get('/api/portal/configuration');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ sales_contact_email: 'sales@example.com', eula_url: '/documents/end-user-licence-agreement.pdf' });
  });
});
