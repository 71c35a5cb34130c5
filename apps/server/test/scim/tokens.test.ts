import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPortalWith, type TestPortal } from '../support/portal.js';
import { buildFixture, createMember, rights, type Fixture } from '../organizations/fixtures.js';
import { Directory, entraUser, expectScimError, makeToken, ORGANIZATION_EXTENSION, patchOp } from './support.js';

/**
 * Directories' SCIM tokens: made by a userManager of the organization (shown once, kept as a hash),
 * listed without their secret, deleted with immediate effect, audited; a token sees and changes
 * only the members of its organization's subtree, and only those whose rights its maker held.
 */
let portal: TestPortal;
let f: Fixture;
beforeAll(async () => ({ portal, built: f } = await startPortalWith(buildFixture)));
afterAll(() => portal?.close());

const unique = (label: string) => `${label}.${Date.now()}.${Math.floor(Math.random() * 1e6)}@dealer.example`;

describe('POST, GET and DELETE /api/organizations/{id}/scim-tokens', () => {
  it('makes a token shown once and kept as a hash; lists tokens without it; deletes it at once; audited', async () => {
    const made = await f.userMgrA.client.post(`/api/organizations/${f.tree.a.id}/scim-tokens`, { name: '  Okta  ' });
    expect(made.status, made.text).toBe(201);
    expect(made.body.token).toMatch(/^ppscim_[\w-]{43}$/);
    const stored = await portal.services.db.query<{ token_hash: string; name: string }>(
      'SELECT token_hash, name FROM scim_tokens WHERE id = $1',
      [made.body.id],
    );
    expect(stored.rows[0]!.name).toBe('Okta');
    expect(stored.rows[0]!.token_hash).not.toContain(made.body.token.slice(7));

    const directory = new Directory(portal, made.body.token);
    expect((await directory.get('/Users')).status).toBe(200);
    const listed = await f.userMgrA.client.get(`/api/organizations/${f.tree.a.id}/scim-tokens`);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([
      expect.objectContaining({ id: made.body.id, name: 'Okta', organization_id: f.tree.a.id, created_by_email: f.userMgrA.email }),
    ]);
    expect(listed.body[0].last_used_at).not.toBeNull();
    expect(JSON.stringify(listed.body)).not.toContain(made.body.token);

    const gone = await f.userMgrA.client.delete(`/api/organizations/${f.tree.a.id}/scim-tokens/${made.body.id}`);
    expect(gone.status).toBe(204);
    const refused = await directory.get('/Users');
    expectScimError(refused, 401);
    expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer/);
    const again = await f.userMgrA.client.delete(`/api/organizations/${f.tree.a.id}/scim-tokens/${made.body.id}`);
    expect(again.status).toBe(404);
    expect(again.body.i18NTranslationKey).toBe('unknown_scim_token');

    const audit = await portal.services.db.query<{ action: string; actor_user_id: string }>(
      `SELECT action, actor_user_id FROM audit_log WHERE target_type = 'scim_token' AND target_id = $1 ORDER BY id`,
      [made.body.id],
    );
    expect(audit.rows).toEqual([
      { action: 'scim_token.create', actor_user_id: f.userMgrA.userId },
      { action: 'scim_token.delete', actor_user_id: f.userMgrA.userId },
    ]);
  });

  it('is for userManagers of the organization or above (403), needs a name (400), at most ten (409)', async () => {
    expect((await f.orgMgrA.client.post(`/api/organizations/${f.tree.a.id}/scim-tokens`, { name: 'x' })).status).toBe(403);
    expect((await f.plainA.client.get(`/api/organizations/${f.tree.a.id}/scim-tokens`)).status).toBe(403);
    expect((await f.mgrB.client.get(`/api/organizations/${f.tree.a.id}/scim-tokens`)).status).toBe(403);
    expect((await portal.client().get(`/api/organizations/${f.tree.a.id}/scim-tokens`)).status).toBe(401);
    const blank = await f.userMgrA.client.post(`/api/organizations/${f.tree.north.id}/scim-tokens`, { name: '   ' });
    expect(blank.status).toBe(400);
    // a manager above may make and delete a sub-organization's tokens; the sub-organization's own manager may not reach up
    const south = await makeToken(f.userMgrA.client, f.tree.south.id, 'South');
    expect((await f.mgrNorth.client.delete(`/api/organizations/${f.tree.south.id}/scim-tokens/${south.id}`)).status).toBe(403);
    for (let i = 1; i < 10; i++) await makeToken(f.userMgrA.client, f.tree.south.id, `South ${i}`);
    const eleventh = await f.userMgrA.client.post(`/api/organizations/${f.tree.south.id}/scim-tokens`, { name: 'One too many' });
    expect(eleventh.status).toBe(409);
    expect(eleventh.body.i18NTranslationKey).toBe('too_many_scim_tokens');
    // a token of another organization is not deleted through this one
    expect((await f.userMgrA.client.delete(`/api/organizations/${f.tree.north.id}/scim-tokens/${south.id}`)).status).toBe(404);
  });
});

describe('a token acts on its organization’s subtree only', () => {
  it('another organization’s token neither sees nor changes the member (404, empty lists)', async () => {
    const a = new Directory(portal, (await makeToken(f.userMgrA.client, f.tree.a.id, 'A')).token);
    const b = new Directory(portal, (await makeToken(f.mgrB.client, f.tree.b.id, 'B')).token);
    const email = unique('isolated');
    const created = await a.post('/Users', entraUser(email, { [ORGANIZATION_EXTENSION]: { organizationId: f.tree.north.id } }));
    expect(created.status, created.text).toBe(201);
    expect(created.body[ORGANIZATION_EXTENSION].organizationId).toBe(f.tree.north.id);
    const id = created.body.id;

    expectScimError(await b.get(`/Users/${id}`), 404);
    expectScimError(await b.patch(`/Users/${id}`, patchOp({ op: 'replace', path: 'active', value: false })), 404);
    expectScimError(await b.put(`/Users/${id}`, entraUser(email)), 404);
    expectScimError(await b.delete(`/Users/${id}`), 404);
    expect((await b.findByUserName(email)).body.totalResults).toBe(0);
    expect((await b.get('/Users?count=200')).body.Resources.map((u: { id: string }) => u.id)).not.toContain(id);
    // the address is the portal's one account: the other directory cannot create it again
    expectScimError(await b.post('/Users', entraUser(email)), 409, 'uniqueness');
    expect((await a.get(`/Users/${id}`)).body.active).toBe(true);

    // a token of a sub-organization does not reach its parent's members
    const north = new Directory(portal, (await makeToken(f.mgrNorth.client, f.tree.north.id, 'North')).token);
    expect((await north.get(`/Users/${id}`)).status).toBe(200);
    expectScimError(await north.get(`/Users/${f.userMgrA.memberId}`), 404);
    // nor can it place a member above itself (400 invalidValue, nothing made)
    const above = await north.post('/Users', entraUser(unique('above'), { [ORGANIZATION_EXTENSION]: { organizationId: f.tree.a.id } }));
    expectScimError(above, 400, 'invalidValue');
    const unknown = await north.post('/Users', entraUser(unique('unknown'), { [ORGANIZATION_EXTENSION]: { organizationId: 'not-an-id' } }));
    expectScimError(unknown, 400, 'invalidValue');
  });

  it('changes no member who holds rights its maker did not hold (403, audited), nor the root’s last user manager', async () => {
    const a = new Directory(portal, (await makeToken(f.userMgrA.client, f.tree.a.id, 'Limited')).token);
    const strong = await createMember(portal, f.tree.north, 'strong', (r) => (r.loyalty.user_full_permission = true));
    const refused = await a.patch(`/Users/${strong.memberId}`, patchOp({ op: 'replace', path: 'active', value: false }));
    expectScimError(refused, 403);
    expectScimError(await a.delete(`/Users/${strong.memberId}`), 403);
    expect((await strong.client.get('/api/identity/user-info')).status).toBe(200);
    const audit = await portal.services.db.query<{ action: string; actor_email: string }>(
      `SELECT action, actor_email FROM audit_log WHERE target_id = $1 AND action LIKE '%.refused' ORDER BY id`,
      [strong.memberId],
    );
    expect(audit.rows).toEqual([
      { action: 'member.deactivate.refused', actor_email: 'SCIM: Limited' },
      { action: 'member.remove.refused', actor_email: 'SCIM: Limited' },
    ]);
    // a member with the rights it holds is changed
    const plain = await createMember(portal, f.tree.north, 'plain', rights());
    expect((await a.patch(`/Users/${plain.memberId}`, patchOp({ op: 'replace', path: 'active', value: false }))).status).toBe(200);

    // the provider's root organization keeps an active member who manages users
    const root = new Directory(portal, (await makeToken(f.admin.client, f.tree.root.id, 'Provider')).token);
    const last = await root.patch(`/Users/${f.admin.memberId}`, patchOp({ op: 'replace', path: 'active', value: false }));
    expectScimError(last, 409);
    expect(last.body.detail).toMatch(/provider's organization must keep/i);
    expect((await f.admin.client.get('/api/identity/user-info')).status).toBe(200);
  });
});
