import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPortalWith, type TestPortal } from '../support/portal.js';
import { buildFixture, type Fixture } from './fixtures.js';

let portal: TestPortal;
let f: Fixture;

beforeAll(async () => ({ portal, built: f } = await startPortalWith(buildFixture)));
afterAll(() => portal?.close());

describe('GET /api/audit', () => {
  it('records every administrative change with actor, organization, before/after and request id, for the subtree’s managers', async () => {
    const created = await f.orgMgrA.client.post(
      '/api/organizations',
      { parent_organization_id: f.tree.north.id, name: 'Audited' },
      { headers: { 'x-request-id': 'req-audit-1' } },
    );
    expect(created.status).toBe(201);
    await f.mgrB.client.post('/api/organizations', { parent_organization_id: f.tree.b.id, name: 'Elsewhere' });
    const res = await f.userMgrA.client.get('/api/audit');
    expect(res.status).toBe(200);
    const entry = res.body.entries.find((e: any) => e.action === 'organization.create');
    expect(entry).toMatchObject({
      actor_user_id: f.orgMgrA.userId,
      actor_email: f.orgMgrA.email,
      organization_id: created.body.id,
      target_type: 'organization',
      request_id: created.headers.get('x-request-id'),
    });
    expect(entry.request_id).not.toBe('req-audit-1');
    expect(entry.after).toMatchObject({ name: 'Audited' });
    expect(res.body.entries.some((e: any) => e.after?.name === 'Elsewhere')).toBe(false);
    const north = await f.mgrNorth.client.get(`/api/audit?organizationId=${f.tree.north.id}`);
    expect(north.body.entries.map((e: any) => e.target_id)).toContain(created.body.id);
    expect(north.body.total).toBeGreaterThanOrEqual(1);
  });

  it('is refused to plain members, other subtrees, ancestors of the actor (403), anonymous (401); unknown 404', async () => {
    expect((await f.plainA.client.get('/api/audit')).status).toBe(403);
    expect((await f.mgrB.client.get(`/api/audit?organizationId=${f.tree.a.id}`)).status).toBe(403);
    expect((await f.mgrNorth.client.get(`/api/audit?organizationId=${f.tree.a.id}`)).status).toBe(403);
    expect((await portal.client().get('/api/audit')).status).toBe(401);
    expect((await f.userMgrA.client.get('/api/audit?organizationId=00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await f.userMgrA.client.get('/api/audit?page=0')).status).toBe(400);
  });
});

describe('GET /api/developer/organization-export', () => {
  it('exports the whole tree as JSON to developers', async () => {
    const res = await f.admin.client.get('/api/developer/organization-export');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/attachment/);
    expect(res.body.tree.key).toBe(f.tree.root.id);
    expect(res.body.organizations).toBeGreaterThanOrEqual(7);
    expect(res.body.tree.children.map((c: any) => c.label)).toEqual(expect.arrayContaining(['Dealer A', 'Dealer B']));
  });

  it('is refused to non-developers (403) and anonymous visitors (401)', async () => {
    expect((await f.fullA.client.get('/api/developer/organization-export')).status).toBe(403);
    expect((await f.mgrB.client.get('/api/developer/organization-export')).status).toBe(403);
    expect((await portal.client().get('/api/developer/organization-export')).status).toBe(401);
  });
});
