import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_EXPORT_COLUMNS } from '../../src/modules/audit/read.js';
import { startPortal, type TestPortal } from '../support/portal.js';
import { buildFixture, type Fixture } from '../organizations/fixtures.js';

let portal: TestPortal;
let f: Fixture;
const created: Record<string, string> = {};

/** Test-only: move an entry's time into the past (the portal itself only ever writes now()). */
async function setOccurredAt(targetId: string, iso: string) {
  await portal.services.db.query('UPDATE audit_log SET occurred_at = $2 WHERE target_id = $1', [targetId, iso]);
}

beforeAll(async () => {
  portal = await startPortal();
  f = await buildFixture(portal);
  const make = async (client: typeof f.admin.client, parent: string, name: string) => {
    const res = await client.post('/api/organizations', { parent_organization_id: parent, name });
    expect(res.status).toBe(201);
    created[name] = res.body.id;
  };
  await make(f.orgMgrA.client, f.tree.north.id, 'Trail North Old');
  await make(f.orgMgrA.client, f.tree.a.id, 'Trail South');
  await make(f.mgrNorth.client, f.tree.north.id, 'Trail Farm Shed');
  await make(f.mgrB.client, f.tree.b.id, 'Trail Elsewhere');
  await setOccurredAt(created['Trail North Old']!, '2026-01-15T10:00:00Z');
  await setOccurredAt(created['Trail South']!, '2026-02-01T23:59:59Z');
  await setOccurredAt(created['Trail Farm Shed']!, '2026-02-02T00:00:00Z');
  const renamed = await f.orgMgrA.client.patch(`/api/organizations/${created['Trail South']}`, { name: 'Trail South Renamed' });
  expect(renamed.status).toBeLessThan(300);
});
afterAll(() => portal?.close());

const names = (entries: any[]) => entries.map((e) => e.after?.name ?? e.before?.name);

describe('GET /api/audit with filters', () => {
  it('lists the subtree newest first; no filter keeps the answer it always gave', async () => {
    const res = await f.userMgrA.client.get(`/api/audit?organizationId=${f.tree.a.id}`);
    expect(res.status).toBe(200);
    const times = res.body.entries.map((e: any) => e.occurred_at);
    expect([...times].sort().reverse()).toEqual(times);
    expect(names(res.body.entries)).toEqual(expect.arrayContaining(['Trail North Old', 'Trail South', 'Trail Farm Shed']));
    expect(names(res.body.entries)).not.toContain('Trail Elsewhere');
  });

  it('filters by action (its refusals included) and by part of the actor’s address in any letter case', async () => {
    const updates = await f.userMgrA.client.get(`/api/audit?action=organization.update`);
    expect(updates.status).toBe(200);
    expect(updates.body.entries.length).toBeGreaterThanOrEqual(1);
    expect(updates.body.entries.every((e: any) => e.action === 'organization.update' || e.action === 'organization.update.refused')).toBe(
      true,
    );

    const byActor = await f.userMgrA.client.get(
      `/api/audit?action=organization.create&actor=${encodeURIComponent(f.mgrNorth.email.toUpperCase().slice(0, 8))}`,
    );
    expect(byActor.status).toBe(200);
    expect(byActor.body.entries.every((e: any) => e.actor_email.toLowerCase().startsWith(f.mgrNorth.email.toLowerCase().slice(0, 8)))).toBe(
      true,
    );
    expect(names(byActor.body.entries)).toContain('Trail Farm Shed');
    expect(names(byActor.body.entries)).not.toContain('Trail South');

    const noneLike = await f.userMgrA.client.get(`/api/audit?actor=${encodeURIComponent('%')}`);
    expect(noneLike.body.total).toBe(0);
  });

  it('filters by a date range of whole UTC days, both days included', async () => {
    const feb1 = await f.userMgrA.client.get(`/api/audit?from=2026-02-01&to=2026-02-01`);
    expect(names(feb1.body.entries)).toEqual(['Trail South']);
    const range = await f.userMgrA.client.get(`/api/audit?from=2026-01-15&to=2026-02-02`);
    expect(names(range.body.entries)).toEqual(['Trail Farm Shed', 'Trail South', 'Trail North Old']);
    expect(range.body.total).toBe(3);
    const since = await f.userMgrA.client.get(`/api/audit?from=2026-02-02&action=organization.create`);
    expect(names(since.body.entries)).toContain('Trail Farm Shed');
    expect(names(since.body.entries)).not.toContain('Trail North Old');
  });

  it('filters by organization: another subtree within the actor’s, never outside it', async () => {
    const north = await f.userMgrA.client.get(`/api/audit?organizationId=${f.tree.north.id}&action=organization.create`);
    expect(names(north.body.entries)).toEqual(expect.arrayContaining(['Trail North Old', 'Trail Farm Shed']));
    expect(names(north.body.entries)).not.toContain('Trail South');
    const farm = await f.mgrNorth.client.get(`/api/audit?organizationId=${created['Trail Farm Shed']}`);
    expect(names(farm.body.entries)).toEqual(['Trail Farm Shed']);
    expect((await f.mgrNorth.client.get(`/api/audit?organizationId=${f.tree.south.id}&action=organization.create`)).status).toBe(403);
    expect((await f.mgrB.client.get(`/api/audit?organizationId=${f.tree.a.id}&actor=a`)).status).toBe(403);
    expect((await f.plainA.client.get('/api/audit?action=organization.create')).status).toBe(403);
  });

  it('answers 400 with validation_failed for bad filters', async () => {
    for (const query of [
      'from=2026-13-01',
      'to=yesterday',
      'from=2026-02-02&to=2026-02-01',
      'action=DROP%20TABLE',
      `actor=${'x'.repeat(201)}`,
    ]) {
      const res = await f.userMgrA.client.get(`/api/audit?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.i18NTranslationKey, query).toBe('validation_failed');
    }
  });
});

describe('GET /api/audit/export', () => {
  it('exports every matching entry of the subtree as CSV, newest first, same filters', async () => {
    const res = await f.userMgrA.client.get(`/api/audit/export?organizationId=${f.tree.a.id}&from=2026-01-15&to=2026-02-02`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="audit-.*\.csv"$/);
    const rows = parse<Record<string, string>>(res.text, { columns: true, bom: true });
    expect(rows.map((r) => JSON.parse(r.after!).name)).toEqual(['Trail Farm Shed', 'Trail South', 'Trail North Old']);
    expect(rows[0]).toMatchObject({
      action: 'organization.create',
      actor_email: f.mgrNorth.email,
      occurred_at: '2026-02-02T00:00:00.000Z',
    });
    expect(Object.keys(rows[0]!)).toEqual(AUDIT_EXPORT_COLUMNS);
    const all = await f.userMgrA.client.get('/api/audit/export');
    const listed = await f.userMgrA.client.get('/api/audit');
    expect(parse<Record<string, string>>(all.text, { columns: true, bom: true }).length).toBe(listed.body.total);
  });

  it('is scoped as the listing: 401 anonymous, 403 plain members and other subtrees, 404 unknown, 400 bad filters', async () => {
    expect((await portal.client().get('/api/audit/export')).status).toBe(401);
    expect((await f.plainA.client.get('/api/audit/export')).status).toBe(403);
    expect((await f.mgrB.client.get(`/api/audit/export?organizationId=${f.tree.a.id}`)).status).toBe(403);
    expect((await f.userMgrA.client.get('/api/audit/export?organizationId=00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await f.userMgrA.client.get('/api/audit/export?from=2026-02-30')).status).toBe(400);
    const b = await f.mgrB.client.get('/api/audit/export');
    expect(b.text).toContain('Trail Elsewhere');
    expect(b.text).not.toContain('Trail South');
  });
});
