import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import * as q from '../../src/modules/organizations/queries.js';
import { buildTree } from '../../src/modules/organizations/service.js';
import type { HttpClient } from '../support/http.js';
import { startPortal, type TestPortal } from '../support/portal.js';
import { createMember, createOrg, rights } from './fixtures.js';

/**
 * The tree is cached per instance (TreeCache) and must follow every change at once, also a change
 * made through another instance: here a second app on the same database, with its own cache.
 */
let portal: TestPortal;
let other: FastifyInstance;
let admin: HttpClient;

beforeAll(async () => {
  portal = await startPortal();
  other = await buildApp(portal.services);
  admin = await portal.sessionFor(portal.adminUserId);
});
afterAll(async () => {
  await other?.close();
  await portal?.close();
});

const root = () => ({ id: portal.rootOrganizationId, path: 'nedap', name: 'Nedap' });
const findNode = (node: any, path: string): any =>
  node.path === path ? node : node.children.map((c: any) => findNode(c, path)).find(Boolean);

/** The tree as each instance answers it (both answers must be equal). */
async function trees(): Promise<any> {
  const viaFirst = await admin.get('/api/organizations/tree');
  const viaOther = await other.inject({
    method: 'GET',
    url: '/api/organizations/tree',
    headers: { cookie: admin.cookieHeader(), 'x-csrf': '1' },
  });
  expect(viaFirst.status).toBe(200);
  expect(viaOther.statusCode).toBe(200);
  expect(viaOther.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(viaOther.json()).toEqual(viaFirst.body);
  return viaFirst.body;
}

describe('the cached organization tree', () => {
  it('is the same JSON as a tree built afresh', async () => {
    await trees();
    const cached = await admin.get('/api/organizations/tree');
    const fresh = buildTree(await q.listSubtree(portal.services.db, root().path));
    expect(cached.text).toBe(JSON.stringify(fresh));
  });

  it('follows each kind of change made through either instance at once', async () => {
    await trees();
    // a new organization (through the first instance), seen by the other one
    const created = await admin.post('/api/organizations', {
      parent_organization_id: root().id,
      name: 'Cache Dealer',
      client_ids: ['partner-portal'],
    });
    expect(created.status).toBe(201);
    let tree = await trees();
    const dealer = findNode(tree, 'nedap/cache-dealer');
    expect(dealer).toMatchObject({ label: 'Cache Dealer', members: 0, pending_invitations: 0, apps: ['partner-portal'] });

    // a rename through the other instance, seen by the first one
    const renamed = await other.inject({
      method: 'PATCH',
      url: `/api/organizations/${dealer.key}`,
      headers: { cookie: admin.cookieHeader(), 'x-csrf': '1', 'content-type': 'application/json' },
      payload: { name: 'Cache Dealer Two' },
    });
    expect(renamed.statusCode).toBeLessThan(300);
    tree = await trees();
    expect(findNode(tree, 'nedap/cache-dealer')).toBeUndefined();
    const path = 'nedap/cache-dealer-two';
    expect(findNode(tree, path).label).toBe('Cache Dealer Two');

    // an invitation, then its revocation
    const invited = await admin.post(`/api/organizations/${dealer.key}/invitations`, { email_address: 'cache.invitee@example.com' });
    expect(invited.status).toBe(201);
    expect(findNode(await trees(), path).pending_invitations).toBe(1);
    expect((await admin.put(`/api/invitations/${invited.body.invitation.invitation_id}/revoke`)).status).toBeLessThan(300);
    expect(findNode(await trees(), path).pending_invitations).toBe(0);

    // a member, then the member's removal
    const member = await createMember(portal, { id: dealer.key, path, name: 'Cache Dealer Two' }, 'Member', rights());
    expect(findNode(await trees(), path).members).toBe(1);
    expect((await admin.delete(`/api/organizations/${dealer.key}/members/${member.memberId}`)).status).toBeLessThan(300);
    expect(findNode(await trees(), path).members).toBe(0);

    // apps and allowed e-mail domains
    expect(
      (await admin.patch(`/api/organizations/${dealer.key}/apps`, { client_ids: ['partner-portal', 'media-library'] })).status,
    ).toBeLessThan(300);
    expect(findNode(await trees(), path).apps).toEqual(['media-library', 'partner-portal']);
    expect(
      (await admin.put(`/api/organizations/${dealer.key}/allowed-email-domains`, { allowed_email_domains: ['dealer.example'] })).status,
    ).toBeLessThan(300);
    expect(findNode(await trees(), path).allowed_email_domains).toEqual(['dealer.example']);

    // a sub-organization written straight to the database (no API), then the deletion
    const sub = await createOrg(portal, { id: dealer.key, path, name: 'Cache Dealer Two' }, 'Barn');
    expect(findNode(await trees(), `${path}/barn`)).toBeDefined();
    expect((await admin.delete(`/api/organizations/${sub.id}`)).status).toBeLessThan(300);
    expect(findNode(await trees(), `${path}/barn`)).toBeUndefined();
  });

  it('counts a pending invitation until it expires, without any write in between', async () => {
    const org = await createOrg(portal, root(), 'Expiring');
    const { rows } = await portal.services.db.query<{ expires_at: Date | string }>(
      `INSERT INTO invitations (organization_id, email, code_hash, language_code, is_external_identity_provider, rights, last_sent_at, expires_at)
       VALUES ($1, 'soon.expired@example.com', 'x', 'en', false, '{}', now(), now() + interval '1500 milliseconds') RETURNING expires_at`,
      [org.id],
    );
    const expiresAt = new Date(rows[0]!.expires_at).getTime();
    expect(findNode(await trees(), org.path).pending_invitations).toBe(1);
    // asked again until the count drops, which it must within seconds of the expiry (not at the
    // cache's maximum age of ten minutes; ten seconds leave room for a machine under load)
    await expect
      .poll(async () => findNode(await trees(), org.path).pending_invitations, { timeout: expiresAt + 10_000 - Date.now(), interval: 50 })
      .toBe(0);
  });

  it('keeps no change older than an hour in its log', async () => {
    await portal.services.db.query(
      `INSERT INTO organization_tree_changes (txid, recorded_at) VALUES ('1', now() - interval '2 hours') ON CONFLICT DO NOTHING`,
    );
    await q.sweepTreeChanges(portal.services.db);
    const { rows } = await portal.services.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM organization_tree_changes WHERE recorded_at < now() - interval '1 hour'`,
    );
    expect(rows[0]!.n).toBe(0);
  });
});
