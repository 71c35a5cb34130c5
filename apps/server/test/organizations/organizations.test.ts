import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPortalWith, type TestPortal } from '../support/portal.js';
import { buildFixture, createMember, createOrg, rights, type Fixture } from './fixtures.js';

let portal: TestPortal;
let f: Fixture;

beforeAll(async () => ({ portal, built: f } = await startPortalWith(buildFixture)));
afterAll(() => portal?.close());

const findNode = (node: any, path: string): any =>
  node.path === path ? node : node.children.map((c: any) => findNode(c, path)).find(Boolean);

describe('GET /api/organizations/tree', () => {
  it('gives the actor’s own organization as root with its subtree sorted by path and counts', async () => {
    const res = await f.userMgrA.client.get('/api/organizations/tree');
    expect(res.status).toBe(200);
    expect(res.body.key).toBe(f.tree.a.id);
    expect(res.body.parent_id).toBe(f.tree.root.id);
    expect(res.body.children.map((c: any) => c.path)).toEqual([f.tree.north.path, f.tree.south.path]);
    expect(res.body.members).toBe(4);
    expect(findNode(res.body, f.tree.barn.path)).toMatchObject({ label: 'Barn', members: 0, children: [] });
    expect(findNode(res.body, f.tree.farm.path).members).toBe(1);
    expect(res.body.apps).toContain('partner-portal');
    expect(findNode(res.body, f.tree.b.path)).toBeUndefined();
  });

  it('gives the root administrator the whole tree, and nothing of other subtrees to a leaf manager', async () => {
    const all = await f.admin.client.get('/api/organizations/tree');
    expect(all.status).toBe(200);
    expect(all.body.key).toBe(f.tree.root.id);
    expect(all.body.children.map((c: any) => c.label)).toEqual(['Dealer A', 'Dealer B']);
    const north = await f.mgrNorth.client.get('/api/organizations/tree');
    expect(north.body.key).toBe(f.tree.north.id);
    expect(JSON.stringify(north.body)).not.toContain(f.tree.south.id);
  });

  it('is refused to plain members (403) and anonymous visitors (401)', async () => {
    expect((await f.plainA.client.get('/api/organizations/tree')).status).toBe(403);
    expect((await portal.client().get('/api/organizations/tree')).status).toBe(401);
  });
});

describe('GET /api/organizations/{id}', () => {
  it('describes an organization of the subtree', async () => {
    const res = await f.orgMgrA.client.get(`/api/organizations/${f.tree.north.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: f.tree.north.id,
      parent_id: f.tree.a.id,
      name: 'North',
      path: f.tree.north.path,
      can_create_sub_organization: true,
    });
    expect(res.body.sub_organizations).toEqual([{ id: f.tree.farm.id, name: 'Farm 1', path: f.tree.farm.path, can_be_deleted: false }]);
    expect(res.body.members.map((m: any) => m.email_address)).toEqual([f.mgrNorth.email]);
    expect(res.body.apps[0]).toEqual({ client_id: 'partner-portal', name: 'Partner Portal', available_for_sub_organizations: true });
    expect(res.body.allowed_email_domains).toEqual([]);
    expect(res.body.pending_invitations).toEqual([]);
    const a = await f.orgMgrA.client.get(`/api/organizations/${f.tree.a.id}`);
    expect(a.body.sub_organizations.find((s: any) => s.id === f.tree.south.id).can_be_deleted).toBe(true);
  });

  it('answers 404 for an unknown id, 400 for a malformed one, 403 outside the subtree', async () => {
    expect((await f.orgMgrA.client.get('/api/organizations/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await f.orgMgrA.client.get('/api/organizations/not-a-uuid')).status).toBe(400);
    expect((await f.orgMgrA.client.get(`/api/organizations/${f.tree.b.id}`)).status).toBe(403);
    expect((await f.mgrNorth.client.get(`/api/organizations/${f.tree.a.id}`)).status).toBe(403);
    expect((await f.plainA.client.get(`/api/organizations/${f.tree.a.id}`)).status).toBe(403);
  });
});

describe('POST /api/organizations', () => {
  it('creates a sub-organization with a trimmed name, a derived path and the given apps', async () => {
    const res = await f.orgMgrA.client.post('/api/organizations', {
      parent_organization_id: f.tree.a.id,
      name: '  Éast Côast B.V.  ',
      client_ids: ['media-library', 'learnspace'],
      can_create_sub_organization: true,
    });
    expect(res.status).toBe(201);
    const org = await f.orgMgrA.client.get(`/api/organizations/${res.body.id}`);
    expect(org.body).toMatchObject({
      name: 'Éast Côast B.V.',
      path: `${f.tree.a.path}/east-coast-b-v`,
      parent_id: f.tree.a.id,
      can_create_sub_organization: true,
      sub_organization_can_have_children: true,
    });
    expect(org.body.apps.map((a: any) => a.client_id).sort()).toEqual(['learnspace', 'media-library']);
    const audit = await portal.services.db.query<any>("SELECT * FROM audit_log WHERE action = 'organization.create' AND target_id = $1", [
      res.body.id,
    ]);
    expect(audit.rows[0]).toMatchObject({ actor_user_id: f.orgMgrA.userId, organization_path: `${f.tree.a.path}/east-coast-b-v` });
    expect(audit.rows[0].request_id).toBeTruthy();
  });

  it('refuses a duplicate path (409 sub_organization_path_already_exists)', async () => {
    const res = await f.orgMgrA.client.post('/api/organizations', { parent_organization_id: f.tree.a.id, name: 'north' });
    expect(res.status).toBe(409);
    expect(res.body.i18NTranslationKey).toBe('sub_organization_path_already_exists');
  });

  it('lets exactly one of two concurrent creations of the same path win', async () => {
    const body = { parent_organization_id: f.tree.a.id, name: 'Concurrent Co' };
    const [x, y] = await Promise.all([f.orgMgrA.client.post('/api/organizations', body), f.fullA.client.post('/api/organizations', body)]);
    expect([x.status, y.status].sort()).toEqual([201, 409]);
    const loser = x.status === 409 ? x : y;
    expect(loser.body.i18NTranslationKey).toBe('sub_organization_path_already_exists');
    const n = await portal.services.db.query<{ n: number }>('SELECT count(*)::int AS n FROM organizations WHERE path = $1', [
      `${f.tree.a.path}/concurrent-co`,
    ]);
    expect(n.rows[0]!.n).toBe(1);
  });

  it('validates the name (400) and its characters', async () => {
    const empty = await f.orgMgrA.client.post('/api/organizations', { parent_organization_id: f.tree.a.id, name: '   ' });
    expect(empty.status).toBe(400);
    expect(empty.body.errors.name[0].translation_key).toBe('organization_name_required');
    const symbols = await f.orgMgrA.client.post('/api/organizations', { parent_organization_id: f.tree.a.id, name: '!!!' });
    expect(symbols.status).toBe(400);
    expect(symbols.body.errors.name[0].translation_key).toBe('invalid_path_characters');
    const missing = await f.orgMgrA.client.post('/api/organizations', { name: 'x' });
    expect(missing.status).toBe(400);
  });

  it('refuses parents that may not have sub-organizations, and children that may not have children', async () => {
    const south = await f.orgMgrA.client.post('/api/organizations', { parent_organization_id: f.tree.south.id, name: 'Nope' });
    expect(south.status).toBe(409);
    expect(south.body.i18NTranslationKey).toBe('not_allowed_to_create_sub_organizations');
    const leafParent = await createOrg(portal, f.tree.a, 'No Grandchildren', { canCreate: true, subCanHaveChildren: false });
    const child = await f.orgMgrA.client.post('/api/organizations', {
      parent_organization_id: leafParent.id,
      name: 'Kid',
      can_create_sub_organization: true,
    });
    expect(child.status).toBe(409);
    expect(child.body.i18NTranslationKey).toBe('not_allowed_to_create_sub_organizations');
    const plainKid = await f.orgMgrA.client.post('/api/organizations', { parent_organization_id: leafParent.id, name: 'Kid' });
    expect(plainKid.status).toBe(201);
  });

  it('enforces the maximum number of sub-organizations', async () => {
    const capped = await createOrg(portal, f.tree.a, 'Capped', { canCreate: true, max: 1 });
    expect((await f.orgMgrA.client.post('/api/organizations', { parent_organization_id: capped.id, name: 'One' })).status).toBe(201);
    const two = await f.orgMgrA.client.post('/api/organizations', { parent_organization_id: capped.id, name: 'Two' });
    expect(two.status).toBe(409);
    expect(two.body.i18NTranslationKey).toBe('maximum_number_of_sub_organizations_reached');
  });

  it('enforces the maximum level', async () => {
    let parent = f.tree.barn;
    await portal.services.db.query(
      'UPDATE organizations SET can_create_sub_organization = true, sub_organization_can_have_children = true WHERE id = $1',
      [parent.id],
    );
    for (let level = 5; level <= 10; level++) parent = await createOrg(portal, parent, `Level ${level}`, { canCreate: true });
    const res = await f.orgMgrA.client.post('/api/organizations', { parent_organization_id: parent.id, name: 'Too Deep' });
    expect(res.status).toBe(409);
    expect(res.body.i18NTranslationKey).toBe('invalid_organization_path_level');
  });

  it('refuses apps the parent does not make available', async () => {
    const limited = await createOrg(portal, f.tree.a, 'Limited', {
      canCreate: true,
      apps: ['media-library', 'learnspace'],
      availableForSub: ['media-library'],
    });
    const res = await f.orgMgrA.client.post('/api/organizations', {
      parent_organization_id: limited.id,
      name: 'Kid',
      client_ids: ['learnspace'],
    });
    expect(res.status).toBe(409);
    expect(res.body.i18NTranslationKey).toBe('cannot_assign_apps_not_available');
    const unknown = await f.orgMgrA.client.post('/api/organizations', {
      parent_organization_id: limited.id,
      name: 'Kid',
      client_ids: ['no-such-app'],
    });
    expect(unknown.status).toBe(409);
    expect(
      (
        await f.orgMgrA.client.post('/api/organizations', {
          parent_organization_id: limited.id,
          name: 'Kid',
          client_ids: ['media-library'],
        })
      ).status,
    ).toBe(201);
  });

  it('is refused to userManagers without organizationManager, outside the subtree, and for unknown parents', async () => {
    expect((await f.userMgrA.client.post('/api/organizations', { parent_organization_id: f.tree.a.id, name: 'X1' })).status).toBe(403);
    expect((await f.mgrB.client.post('/api/organizations', { parent_organization_id: f.tree.a.id, name: 'X2' })).status).toBe(403);
    expect((await f.mgrNorth.client.post('/api/organizations', { parent_organization_id: f.tree.a.id, name: 'X3' })).status).toBe(403);
    expect(
      (await f.orgMgrA.client.post('/api/organizations', { parent_organization_id: '00000000-0000-4000-8000-000000000000', name: 'X4' }))
        .status,
    ).toBe(404);
    expect((await portal.client().post('/api/organizations', { parent_organization_id: f.tree.a.id, name: 'X5' })).status).toBe(401);
  });
});

describe('PATCH /api/organizations/{id} (rename)', () => {
  it('renames and moves the path of the subtree and of the members’ copies', async () => {
    const top = await createOrg(portal, f.tree.b, 'Old Name', { canCreate: true });
    const child = await createOrg(portal, top, 'Child');
    const member = await createMember(portal, child, 'moved', rights());
    const res = await f.mgrB.client.patch(`/api/organizations/${top.id}`, { name: '  New Name ' });
    expect(res.status).toBe(204);
    const rows = await portal.services.db.query<{ id: string; name: string; path: string }>(
      'SELECT id, name, path FROM organizations WHERE id = ANY($1::uuid[]) ORDER BY path',
      [[top.id, child.id]],
    );
    expect(rows.rows).toEqual([
      { id: top.id, name: 'New Name', path: `${f.tree.b.path}/new-name` },
      { id: child.id, name: 'Child', path: `${f.tree.b.path}/new-name/child` },
    ]);
    const m = await portal.services.db.query<{ organization_path: string }>('SELECT organization_path FROM memberships WHERE id = $1', [
      member.memberId,
    ]);
    expect(m.rows[0]!.organization_path).toBe(`${f.tree.b.path}/new-name/child`);
  });

  it('refuses a name whose path exists (409), one’s own organization (403), and validates', async () => {
    const clash = await f.orgMgrA.client.patch(`/api/organizations/${f.tree.south.id}`, { name: 'North' });
    expect(clash.status).toBe(409);
    expect(clash.body.i18NTranslationKey).toBe('sub_organization_path_already_exists');
    const own = await f.orgMgrA.client.patch(`/api/organizations/${f.tree.a.id}`, { name: 'Mine' });
    expect(own.status).toBe(403);
    expect(own.body.i18NTranslationKey).toBe('cannot_edit_own_organization');
    expect((await f.orgMgrA.client.patch(`/api/organizations/${f.tree.south.id}`, { name: '' })).status).toBe(400);
    expect((await f.mgrB.client.patch(`/api/organizations/${f.tree.south.id}`, { name: 'Hijack' })).status).toBe(403);
    expect((await f.userMgrA.client.patch(`/api/organizations/${f.tree.south.id}`, { name: 'Hijack' })).status).toBe(403);
  });
});

describe('PATCH /api/organizations/{id}/apps (cascade)', () => {
  it('restricts every descendant to the apps allowed for sub-organizations', async () => {
    const l1 = await createOrg(portal, f.tree.b, 'Apps L1', { canCreate: true });
    const l2 = await createOrg(portal, l1, 'Apps L2', { canCreate: true });
    const l3 = await createOrg(portal, l2, 'Apps L3', { canCreate: true });
    const l4 = await createOrg(portal, l3, 'Apps L4');
    const res = await f.mgrB.client.patch(`/api/organizations/${l1.id}/apps`, {
      client_ids: ['partner-portal', 'media-library', 'learnspace'],
      available_for_sub_organizations: ['partner-portal', 'media-library'],
    });
    expect(res.status).toBe(204);
    const apps = async (id: string) =>
      (
        await portal.services.db.query<{ client_id: string }>(
          'SELECT client_id FROM organization_apps WHERE organization_id = $1 ORDER BY client_id',
          [id],
        )
      ).rows.map((r) => r.client_id);
    expect(await apps(l1.id)).toEqual(['learnspace', 'media-library', 'partner-portal']);
    for (const o of [l2, l3, l4]) expect(await apps(o.id)).toEqual(['media-library', 'partner-portal']);
    const tree = await f.mgrB.client.get('/api/organizations/tree');
    expect(findNode(tree.body, l4.path).apps).toEqual(['media-library', 'partner-portal']);
  });

  it('refuses apps the parent does not offer (409), one’s own organization and other subtrees (403)', async () => {
    const limited = await createOrg(portal, f.tree.b, 'Limited Parent', { canCreate: true, apps: ['media-library'] });
    const kid = await createOrg(portal, limited, 'Limited Kid', { apps: ['media-library'] });
    const res = await f.mgrB.client.patch(`/api/organizations/${kid.id}/apps`, { client_ids: ['learnspace'] });
    expect(res.status).toBe(409);
    expect(res.body.i18NTranslationKey).toBe('cannot_assign_apps_not_available');
    expect((await f.mgrB.client.patch(`/api/organizations/${f.tree.b.id}/apps`, { client_ids: [] })).status).toBe(403);
    expect((await f.mgrB.client.patch(`/api/organizations/${f.tree.north.id}/apps`, { client_ids: [] })).status).toBe(403);
    expect((await f.mgrB.client.patch(`/api/organizations/${kid.id}/apps`, { client_ids: 'x' })).status).toBe(400);
  });
});

describe('PATCH /api/organizations/{id}/can-create-sub-organizations', () => {
  it('switching off also switches off sub_organization_can_have_children for the organization and all descendants', async () => {
    const l1 = await createOrg(portal, f.tree.b, 'Flag L1', { canCreate: true });
    const l2 = await createOrg(portal, l1, 'Flag L2', { canCreate: true });
    const l3 = await createOrg(portal, l2, 'Flag L3', { canCreate: true });
    const l4 = await createOrg(portal, l3, 'Flag L4', { canCreate: true });
    const off = await f.mgrB.client.patch(`/api/organizations/${l1.id}/can-create-sub-organizations?canCreateSubOrganizations=false`);
    expect(off.status).toBe(204);
    const flags = await portal.services.db.query<any>(
      'SELECT id, can_create_sub_organization AS c, sub_organization_can_have_children AS s FROM organizations WHERE id = ANY($1::uuid[])',
      [[l1.id, l2.id, l3.id, l4.id]],
    );
    const byId = Object.fromEntries(flags.rows.map((r: any) => [r.id, r]));
    expect(byId[l1.id]).toMatchObject({ c: false, s: false });
    for (const o of [l2, l3, l4]) expect(byId[o.id].s).toBe(false);
    const create = await f.mgrB.client.post('/api/organizations', { parent_organization_id: l1.id, name: 'Blocked' });
    expect(create.status).toBe(409);
    // l2 may no longer be allowed children: its parent l1 no longer allows grandchildren
    const l2on = await f.mgrB.client.patch(`/api/organizations/${l2.id}/can-create-sub-organizations?canCreateSubOrganizations=true`);
    expect(l2on.status).toBe(409);
    const on = await f.mgrB.client.patch(`/api/organizations/${l1.id}/can-create-sub-organizations?canCreateSubOrganizations=true`);
    expect(on.status).toBe(204);
    expect((await f.mgrB.client.post('/api/organizations', { parent_organization_id: l1.id, name: 'Allowed' })).status).toBe(201);
  });

  it('validates the query and refuses others', async () => {
    expect(
      (await f.mgrB.client.patch(`/api/organizations/${f.tree.south.id}/can-create-sub-organizations?canCreateSubOrganizations=maybe`))
        .status,
    ).toBe(400);
    expect((await f.mgrB.client.patch(`/api/organizations/${f.tree.south.id}/can-create-sub-organizations`)).status).toBe(400);
    expect(
      (await f.mgrB.client.patch(`/api/organizations/${f.tree.south.id}/can-create-sub-organizations?canCreateSubOrganizations=true`))
        .status,
    ).toBe(403);
    expect(
      (await f.userMgrA.client.patch(`/api/organizations/${f.tree.south.id}/can-create-sub-organizations?canCreateSubOrganizations=true`))
        .status,
    ).toBe(403);
  });
});

describe('DELETE /api/organizations/{id}', () => {
  it('deletes an empty leaf and refuses organizations with members or sub-organizations', async () => {
    const withMembers = await f.orgMgrA.client.delete(`/api/organizations/${f.tree.farm.id}`);
    expect(withMembers.status).toBe(409);
    expect(withMembers.body.i18NTranslationKey).toBe('cannot_delete_organization_with_members');
    const withChildren = await f.orgMgrA.client.delete(`/api/organizations/${f.tree.north.id}`);
    expect(withChildren.status).toBe(409);
    expect(withChildren.body.i18NTranslationKey).toBe('cannot_delete_organization_with_members');
    const parentOnly = await createOrg(portal, f.tree.a, 'Parent Only', { canCreate: true });
    await createOrg(portal, parentOnly, 'Only Child');
    const subs = await f.orgMgrA.client.delete(`/api/organizations/${parentOnly.id}`);
    expect(subs.status).toBe(409);
    expect(subs.body.i18NTranslationKey).toBe('cannot_delete_organization_with_sub_organizations');
    const leaf = await createOrg(portal, f.tree.a, 'Leaf To Delete');
    expect((await f.mgrB.client.delete(`/api/organizations/${leaf.id}`)).status).toBe(403);
    expect((await f.userMgrA.client.delete(`/api/organizations/${leaf.id}`)).status).toBe(403);
    expect((await f.orgMgrA.client.delete(`/api/organizations/${leaf.id}`)).status).toBe(204);
    expect((await f.orgMgrA.client.get(`/api/organizations/${leaf.id}`)).status).toBe(404);
    expect((await f.orgMgrA.client.delete(`/api/organizations/${leaf.id}`)).status).toBe(404);
    const own = await f.orgMgrA.client.delete(`/api/organizations/${f.tree.a.id}`);
    expect(own.status).toBe(403);
    expect(own.body.i18NTranslationKey).toBe('cannot_delete_own_organization');
  });
});

describe('PUT /api/organizations/{id}/allowed-email-domains', () => {
  it('is set by provider administrators and read by the organization’s managers', async () => {
    const res = await f.admin.client.put(`/api/organizations/${f.tree.south.id}/allowed-email-domains`, {
      allowed_email_domains: ['@South.example', 'farm.example'],
    });
    expect(res.status).toBe(204);
    const org = await f.userMgrA.client.get(`/api/organizations/${f.tree.south.id}`);
    expect(org.body.allowed_email_domains).toEqual(['farm.example', 'south.example']);
    const tree = await f.userMgrA.client.get('/api/organizations/tree');
    expect(findNode(tree.body, f.tree.south.path).allowed_email_domains).toEqual(['farm.example', 'south.example']);
  });

  it('is refused to everyone else and validates domains', async () => {
    expect(
      (await f.fullA.client.put(`/api/organizations/${f.tree.south.id}/allowed-email-domains`, { allowed_email_domains: [] })).status,
    ).toBe(403);
    expect(
      (await f.mgrB.client.put(`/api/organizations/${f.tree.south.id}/allowed-email-domains`, { allowed_email_domains: [] })).status,
    ).toBe(403);
    expect(
      (await portal.client().put(`/api/organizations/${f.tree.south.id}/allowed-email-domains`, { allowed_email_domains: [] })).status,
    ).toBe(401);
    const bad = await f.admin.client.put(`/api/organizations/${f.tree.south.id}/allowed-email-domains`, {
      allowed_email_domains: ['barn.example', ' @Bad Domain! '],
    });
    expect(bad.status).toBe(400);
    // the refused domain is named, read as the field reads it (trimmed, lower case, no leading @)
    expect(bad.body).toMatchObject({ i18NTranslationKey: 'invalid_email_domain', params: { domain: 'bad domain!' } });
    const org = await f.admin.client.get(`/api/organizations/${f.tree.south.id}`);
    expect(org.body.allowed_email_domains).not.toContain('barn.example');
  });
});
