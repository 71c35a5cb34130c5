import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPortalWith, type TestPortal } from '../support/portal.js';
import { buildFixture, createMember, rights, type Fixture } from '../organizations/fixtures.js';

let portal: TestPortal;
let f: Fixture;

beforeAll(async () => ({ portal, built: f } = await startPortalWith(buildFixture)));
afterAll(() => portal?.close());

const storedRights = async (memberId: string) =>
  (await portal.services.db.query<{ rights: any }>('SELECT rights FROM memberships WHERE id = $1', [memberId])).rows[0]!.rights;

describe('GET /api/members/rights/{memberId}', () => {
  it('gives the rights with the editor’s context', async () => {
    const res = await f.userMgrA.client.get(`/api/members/rights/${f.plainA.memberId}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      member_id: f.plainA.memberId,
      organization_id: f.tree.a.id,
      email_address: f.plainA.email,
      is_provider_organization: false,
    });
    expect(res.body.organization_client_ids).toContain('media-library');
    expect(res.body.rights.media_library.user_access).toBe(true);
    expect(res.body.rights.global_full_permission).toBe(false);
    const root = await f.admin.client.get(`/api/members/rights/${f.admin.memberId}`);
    expect(root.body.is_provider_organization).toBe(true);
  });

  it('is refused outside the subtree (403), to organizationManagers only (403), for unknown members (404), anonymously (401)', async () => {
    expect((await f.mgrB.client.get(`/api/members/rights/${f.plainA.memberId}`)).status).toBe(403);
    expect((await f.mgrNorth.client.get(`/api/members/rights/${f.plainA.memberId}`)).status).toBe(403);
    expect((await f.orgMgrA.client.get(`/api/members/rights/${f.plainA.memberId}`)).status).toBe(403);
    expect((await f.plainA.client.get(`/api/members/rights/${f.plainA.memberId}`)).status).toBe(403);
    const unknown = await f.userMgrA.client.get('/api/members/rights/00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.body.i18NTranslationKey).toBe('unknown_member');
    expect((await portal.client().get(`/api/members/rights/${f.plainA.memberId}`)).status).toBe(401);
  });
});

describe('PUT /api/members/rights/{memberId}', () => {
  it('applies the implications: a sub-right ticks access, full permission ticks access and sub-rights', async () => {
    const m = await createMember(portal, f.tree.north, 'rights1', rights());
    const res = await f.admin.client.put(`/api/members/rights/${m.memberId}`, {
      rights: { loyalty: { user_request_manager: true }, subscription: { user_full_permission: true } },
    });
    expect(res.status).toBe(204);
    const r = await storedRights(m.memberId);
    expect(r.loyalty).toMatchObject({ user_access: true, user_request_manager: true });
    expect(r.subscription).toMatchObject({ user_access: true, user_full_permission: true, user_suspender: true });
    const audit = await portal.services.db.query<any>("SELECT * FROM audit_log WHERE action = 'member.rights.update' AND target_id = $1", [
      m.memberId,
    ]);
    expect(audit.rows[0].after.rights.loyalty.user_access).toBe(true);
    expect(audit.rows[0].before.rights.loyalty.user_access).toBe(false);
  });

  it('gives global full permission outside the provider’s organization, ticking every offered app', async () => {
    const m = await createMember(portal, f.tree.north, 'global', rights());
    expect((await f.admin.client.put(`/api/members/rights/${m.memberId}`, { rights: { global_full_permission: true } })).status).toBe(204);
    const r = await storedRights(m.memberId);
    expect(r.global_full_permission).toBe(true);
    expect(r.media_library).toMatchObject({ user_access: true, user_full_permission: true });
    expect(r.partner_portal).toMatchObject({ user_full_permission: true, user_user_manager: true });
    const session = await portal.sessionFor(m.userId);
    expect((await session.get('/api/organizations/tree')).status).toBe(200);
  });

  it('refuses (409 invalid_rights) global full permission in the provider organization, provider rights outside it, apps the organization lacks', async () => {
    const rootMember = await createMember(portal, f.tree.root, 'staff', rights());
    const global = await f.admin.client.put(`/api/members/rights/${rootMember.memberId}`, { rights: { global_full_permission: true } });
    expect(global.status).toBe(409);
    expect(global.body.i18NTranslationKey).toBe('invalid_rights');
    expect(global.body.messages).toEqual(['global_full_permission']);
    const provider = await f.admin.client.put(`/api/members/rights/${f.plainA.memberId}`, {
      rights: { loyalty: { nedap_user_order_manager: true } },
    });
    expect(provider.status).toBe(409);
    expect(provider.body.messages).toEqual(['loyalty.nedap_user_order_manager']);
    const app = await f.admin.client.put(`/api/members/rights/${f.plainA.memberId}`, {
      rights: { profit_calculator: { user_access: true } },
    });
    expect(app.status).toBe(409);
    expect(app.body.messages).toEqual(['profit_calculator.user_access']);
    const staff = await f.admin.client.put(`/api/members/rights/${rootMember.memberId}`, {
      rights: { loyalty: { nedap_user_order_manager: true } },
    });
    expect(staff.status).toBe(204);
    expect((await storedRights(rootMember.memberId)).loyalty).toMatchObject({ nedap_user_order_manager: true, user_access: true });
  });

  it('gives developer options only in the root organization and only by a developer', async () => {
    const dev = await createMember(portal, f.tree.root, 'dev', rights());
    const outside = await f.admin.client.put(`/api/members/rights/${f.plainA.memberId}`, {
      rights: { partner_portal: { developer: true } },
    });
    expect(outside.status).toBe(409);
    const nonDeveloper = await createMember(
      portal,
      f.tree.root,
      'rootmgr',
      rights((r) => (r.partner_portal.nedap_user_full_permission = true)),
    );
    const byNonDeveloper = await nonDeveloper.client.put(`/api/members/rights/${dev.memberId}`, {
      rights: { partner_portal: { developer: true } },
    });
    expect(byNonDeveloper.status).toBe(409);
    expect(byNonDeveloper.body.messages).toContain('partner_portal.developer');
    expect(
      (await f.admin.client.put(`/api/members/rights/${dev.memberId}`, { rights: { partner_portal: { developer: true } } })).status,
    ).toBe(204);
    const u = await portal.services.db.query<{ is_developer: boolean }>('SELECT is_developer FROM users WHERE id = $1', [dev.userId]);
    expect(u.rows[0]!.is_developer).toBe(true);
    // a non-developer lacks the developer box, so cannot change a developer at all
    const keep = await nonDeveloper.client.put(`/api/members/rights/${dev.memberId}`, {
      rights: { partner_portal: { developer: true, user_user_manager: true } },
    });
    expect(keep.status).toBe(403);
    expect(keep.body.i18NTranslationKey).toBe('cannot_manage_member_with_more_rights');
    expect((await storedRights(dev.memberId)).partner_portal).toMatchObject({ developer: true, user_user_manager: false });
  });

  it('validates the body (400), refuses one’s own rights and other subtrees (403)', async () => {
    expect((await f.userMgrA.client.put(`/api/members/rights/${f.plainA.memberId}`, { rights: { nope: true } })).status).toBe(400);
    expect((await f.userMgrA.client.put(`/api/members/rights/${f.plainA.memberId}`, {})).status).toBe(400);
    expect(
      (await f.userMgrA.client.put(`/api/members/rights/${f.userMgrA.memberId}`, { rights: { global_full_permission: true } })).status,
    ).toBe(403);
    expect((await f.mgrB.client.put(`/api/members/rights/${f.plainA.memberId}`, { rights: {} })).status).toBe(403);
    expect((await f.orgMgrA.client.put(`/api/members/rights/${f.plainA.memberId}`, { rights: {} })).status).toBe(403);
  });
});

describe('DELETE /api/organizations/{id}/members/{memberId}', () => {
  it('removes the member, the user and their sessions', async () => {
    const m = await createMember(portal, f.tree.farm, 'leaving', rights());
    expect((await m.client.get('/api/portal')).status).toBe(200);
    const res = await f.userMgrA.client.delete(`/api/organizations/${f.tree.farm.id}/members/${m.memberId}`);
    expect(res.status).toBe(204);
    expect((await m.client.get('/api/portal')).status).toBe(401);
    const u = await portal.services.db.query('SELECT 1 FROM users WHERE id = $1', [m.userId]);
    expect(u.rows).toHaveLength(0);
    expect((await f.userMgrA.client.delete(`/api/organizations/${f.tree.farm.id}/members/${m.memberId}`)).status).toBe(404);
    const audit = await portal.services.db.query<any>("SELECT before FROM audit_log WHERE action = 'member.remove' AND target_id = $1", [
      m.memberId,
    ]);
    expect(audit.rows[0].before.email_address).toBe(m.email);
  });

  it('refuses oneself (409), the wrong organization (404), others (403)', async () => {
    const self = await f.userMgrA.client.delete(`/api/organizations/${f.tree.a.id}/members/${f.userMgrA.memberId}`);
    expect(self.status).toBe(409);
    expect(self.body.i18NTranslationKey).toBe('cannot_remove_yourself');
    expect((await f.userMgrA.client.delete(`/api/organizations/${f.tree.north.id}/members/${f.farmer.memberId}`)).status).toBe(404);
    expect((await f.mgrB.client.delete(`/api/organizations/${f.tree.farm.id}/members/${f.farmer.memberId}`)).status).toBe(403);
    expect((await f.orgMgrA.client.delete(`/api/organizations/${f.tree.farm.id}/members/${f.farmer.memberId}`)).status).toBe(403);
    expect((await portal.client().delete(`/api/organizations/${f.tree.farm.id}/members/${f.farmer.memberId}`)).status).toBe(401);
  });
});

describe('GET /api/members/search', () => {
  it('finds e-mail substrings case-insensitively across the subtree, sorted by path then e-mail, with pending invitations', async () => {
    await createMember(portal, f.tree.south, 'zeta-searchme', rights());
    await createMember(portal, f.tree.barn, 'alpha-searchme', rights());
    await createMember(portal, f.tree.b, 'other-searchme', rights());
    expect(
      (await f.userMgrA.client.post(`/api/organizations/${f.tree.north.id}/invitations`, { email_address: 'invited-SEARCHME@example.com' }))
        .status,
    ).toBe(201);
    const res = await f.userMgrA.client.get(`/api/members/search?organizationId=${f.tree.a.id}&q=SearchMe`);
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(2);
    expect(res.body.members.map((m: any) => m.organization_path)).toEqual([f.tree.barn.path, f.tree.south.path]);
    expect(res.body.members[0]).toMatchObject({ organization_id: f.tree.barn.id, organization_name: 'Barn' });
    expect(res.body.invitations.map((i: any) => i.email_address)).toEqual(['invited-SEARCHME@example.com']);
    expect(res.body.invitations_total).toBe(1);
    const north = await f.userMgrA.client.get(`/api/members/search?organizationId=${f.tree.north.id}&q=searchme`);
    expect(north.body.members.map((m: any) => m.organization_name)).toEqual(['Barn']);
  });

  it('pages, treats LIKE characters literally, and lists everything for an empty query', async () => {
    const all = await f.userMgrA.client.get(`/api/members/search?organizationId=${f.tree.a.id}&pageSize=2`);
    expect(all.body.members).toHaveLength(2);
    const page2 = await f.userMgrA.client.get(`/api/members/search?organizationId=${f.tree.a.id}&pageSize=2&page=2`);
    expect(page2.body.page).toBe(2);
    expect(page2.body.members[0].id).not.toBe(all.body.members[0].id);
    const sorted = await f.userMgrA.client.get(`/api/members/search?organizationId=${f.tree.a.id}&pageSize=200`);
    const keys = sorted.body.members.map((m: any) => [m.organization_path, m.email_address.toLowerCase()]);
    expect(keys).toEqual(
      [...keys].sort((x: string[], y: string[]) => (x[0]! < y[0]! ? -1 : x[0]! > y[0]! ? 1 : x[1]! < y[1]! ? -1 : x[1]! > y[1]! ? 1 : 0)),
    );
    expect(sorted.body.total).toBe(sorted.body.members.length);
    const percent = await f.userMgrA.client.get(`/api/members/search?organizationId=${f.tree.a.id}&q=%25`);
    expect(percent.body.total).toBe(0);
  });

  it('validates (400) and authorizes (401/403/404)', async () => {
    expect((await f.userMgrA.client.get('/api/members/search')).status).toBe(400);
    expect((await f.userMgrA.client.get(`/api/members/search?organizationId=${f.tree.a.id}&pageSize=1000`)).status).toBe(400);
    expect((await f.userMgrA.client.get('/api/members/search?organizationId=00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await f.mgrNorth.client.get(`/api/members/search?organizationId=${f.tree.a.id}`)).status).toBe(403);
    expect((await f.mgrB.client.get(`/api/members/search?organizationId=${f.tree.a.id}`)).status).toBe(403);
    expect((await f.plainA.client.get(`/api/members/search?organizationId=${f.tree.a.id}`)).status).toBe(403);
    expect((await portal.client().get(`/api/members/search?organizationId=${f.tree.a.id}`)).status).toBe(401);
  });

  it('is documented in OpenAPI', async () => {
    const doc = await portal.client().get('/api/docs/json', { csrf: false });
    const op = doc.body.paths['/api/members/search'].get;
    expect(op.description).toMatch(/organization path/);
    expect(op.parameters.map((p: any) => p.name)).toEqual(expect.arrayContaining(['organizationId', 'q', 'page', 'pageSize']));
  });
});

describe('GET /api/members/export', () => {
  it('exports the actor’s subtree as CSV with formula injection neutralised', async () => {
    const evil = await createMember(portal, f.tree.north, 'evil', rights());
    await portal.services.db.query(`UPDATE users SET first_name = '=HYPERLINK("http://x")', last_name = '+cmd' WHERE id = $1`, [
      evil.userId,
    ]);
    const res = await f.userMgrA.client.get('/api/members/export?output=csv');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="members-.*\.csv"$/);
    expect(res.text).toContain('organization_path,organization_name,email_address');
    expect(res.text).toContain(f.farmer.email);
    expect(res.text).not.toContain(f.mgrB.email);
    expect(res.text).toContain(`"'=HYPERLINK(""http://x"")"`);
    expect(res.text).toContain("'+cmd");
    expect(res.text).not.toMatch(/,=HYPERLINK/);
  });

  it('exports XLSX readable by a spreadsheet library', async () => {
    const res = await fetch(`${portal.url}/api/members/export?output=xlsx&organizationId=${f.tree.north.id}`, {
      headers: { 'x-csrf': '1', cookie: f.userMgrA.client.cookieHeader() },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/\.xlsx"$/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await res.arrayBuffer());
    const sheet = workbook.getWorksheet('Members')!;
    const emails: string[] = [];
    sheet.eachRow((row, n) => {
      if (n > 1) emails.push(row.getCell(3).text);
    });
    expect(emails).toContain(f.farmer.email);
    expect(emails).not.toContain(f.plainA.email);
    const firstNames: string[] = [];
    sheet.eachRow((row) => firstNames.push(row.getCell(4).text));
    expect(firstNames.filter((v) => v.startsWith('='))).toEqual([]);
  });

  it('authorizes and validates', async () => {
    expect((await portal.client().get('/api/members/export?output=csv')).status).toBe(401);
    expect((await f.plainA.client.get('/api/members/export?output=csv')).status).toBe(403);
    expect((await f.mgrB.client.get(`/api/members/export?output=csv&organizationId=${f.tree.a.id}`)).status).toBe(403);
    expect((await f.userMgrA.client.get('/api/members/export?output=pdf')).status).toBe(400);
  });
});
