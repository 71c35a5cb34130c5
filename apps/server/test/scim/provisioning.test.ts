import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPortalWith, type TestPortal } from '../support/portal.js';
import { signIn } from '../support/sign-in.js';
import { buildFixture, createOrg, type Fixture } from '../organizations/fixtures.js';
import { Directory, entraUser, expectScimError, makeToken, ORGANIZATION_EXTENSION, patchOp } from './support.js';

/**
 * How provisioned members come to sign in, and what a directory may change about them: an address
 * of a single sign-on connection's domain signs in there (no e-mail); any other gets an invitation
 * that gives the member their password; a member created inactive is invited once reactivated;
 * deactivation withdraws a pending invitation; the organization's allowed domains hold; a move to
 * another organization of the subtree keeps the rights it allows and ends the sessions.
 */
let portal: TestPortal;
let f: Fixture;
let scim: Directory;
beforeAll(async () => {
  ({ portal, built: f } = await startPortalWith(buildFixture));
  scim = new Directory(portal, (await makeToken(f.userMgrA.client, f.tree.a.id, 'Workspace')).token);
});
afterAll(() => portal?.close());

const PASSWORD = 'Provisioned-Passw0rd!';
let n = 0;
const unique = (label: string, domain = 'dealer-a.example') => `${label}.${Date.now()}.${++n}@${domain}`;

const account = async (membershipId: string) =>
  (
    await portal.services.db.query<{
      external_idp: string | null;
      password_hash: string | null;
      deactivated_at: Date | null;
      email: string;
    }>(
      'SELECT u.external_idp, u.password_hash, u.deactivated_at, u.email FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.id = $1',
      [membershipId],
    )
  ).rows[0]!;

const invitationsOf = async (membershipId: string) =>
  (
    await portal.services.db.query<{ id: string; state: string; email: string }>(
      'SELECT id, state, email FROM invitations WHERE member_id = $1 ORDER BY created_at',
      [membershipId],
    )
  ).rows;

const mailsTo = (email: string) => portal.smtp.messages.filter((m) => m.to.includes(email.toLowerCase()));

/** Accept the invitation of the last e-mail to an address, with a password. */
async function acceptLastInvitation(email: string) {
  await portal.smtp.waitFor(email);
  const mail = portal.smtp.to(email).at(-1)!;
  const link = new URL(mail.links.find((l) => l.includes('/invitation/'))!);
  return portal.client().put(`/api/invitations/${link.pathname.split('/').pop()}/accept`, {
    invitation_code: link.searchParams.get('code'),
    first_name: 'Pat',
    last_name: 'Provisioned',
    language_code: 'en',
    password: PASSWORD,
    password_confirmation: PASSWORD,
    accept_agreement: true,
    opt_in_for_newsletter: false,
  });
}

describe('how a provisioned member signs in', () => {
  it('an address of a single sign-on connection’s domain signs in there: no invitation e-mail', async () => {
    const connection = await portal.services.db.query<{ id: string }>(
      `INSERT INTO sso_connections (organization_id, name, issuer, client_id, domains) VALUES ($1, 'Dealer A AD', 'https://login.dealer-a.example', 'portal', ARRAY['sso.dealer-a.example']) RETURNING id`,
      [f.tree.a.id],
    );
    // a connection serves a domain verified at or above it (as the sign-in's and an invitation's routing have it)
    await portal.services.db.query(
      `INSERT INTO organization_domains (organization_id, domain, verification_value, verified_at) VALUES ($1, 'sso.dealer-a.example', 'v', now())`,
      [f.tree.a.id],
    );
    const email = unique('sso', 'SSO.dealer-a.example');
    const created = await scim.post('/Users', entraUser(email, { [ORGANIZATION_EXTENSION]: { organizationId: f.tree.north.id } }));
    expect(created.status, created.text).toBe(201);
    expect(await account(created.body.id)).toMatchObject({ external_idp: connection.rows[0]!.id, password_hash: null });
    // a connection of another organization does not serve this subtree
    await portal.services.db.query(
      `INSERT INTO sso_connections (organization_id, name, issuer, client_id, domains) VALUES ($1, 'Dealer B AD', 'https://login.dealer-b.example', 'portal', ARRAY['b-only.example'])`,
      [f.tree.b.id],
    );
    const other = await scim.post('/Users', entraUser(unique('native', 'b-only.example')));
    expect((await account(other.body.id)).external_idp).toBeNull();
    expect(await invitationsOf(other.body.id)).toHaveLength(1);
    await portal.smtp.waitFor(other.body.userName);
    await portal.mailSettled();
    expect(mailsTo(email)).toEqual([]);
    const audit = await portal.services.db.query<{ after: { sign_in: string } }>(
      `SELECT after FROM audit_log WHERE action = 'member.provision' AND target_id = $1`,
      [created.body.id],
    );
    expect(audit.rows[0]!.after.sign_in).toBe('single_sign_on');
  });

  it('a connection that serves nobody (its domain not verified, or switched off) is no way in: the member is invited, as an invitation would be', async () => {
    await portal.services.db.query(
      `INSERT INTO sso_connections (organization_id, name, issuer, client_id, domains) VALUES ($1, 'Unverified AD', 'https://login.unverified.example', 'portal', ARRAY['unverified.dealer-a.example'])`,
      [f.tree.a.id],
    );
    await portal.services.db.query(
      `INSERT INTO sso_connections (organization_id, name, issuer, client_id, domains, active) VALUES ($1, 'Off AD', 'https://login.off.example', 'portal', ARRAY['off.dealer-a.example'], false)`,
      [f.tree.a.id],
    );
    await portal.services.db.query(
      `INSERT INTO organization_domains (organization_id, domain, verification_value, verified_at) VALUES ($1, 'off.dealer-a.example', 'v', now())`,
      [f.tree.a.id],
    );
    for (const domain of ['unverified.dealer-a.example', 'off.dealer-a.example']) {
      const created = await scim.post('/Users', entraUser(unique('nobody', domain)));
      expect(created.status, created.text).toBe(201);
      expect((await account(created.body.id)).external_idp, domain).toBeNull();
      expect(await invitationsOf(created.body.id), domain).toHaveLength(1);
      await portal.smtp.waitFor(created.body.userName);
    }
  });

  it('a member created inactive gets no invitation until reactivated; deactivation withdraws a pending one', async () => {
    const email = unique('inactive');
    const created = await scim.post('/Users', entraUser(email, { active: 'False' }));
    expect(created.status, created.text).toBe(201);
    expect(created.body.active).toBe(false);
    expect(await invitationsOf(created.body.id)).toEqual([]);

    const on = await scim.patch(`/Users/${created.body.id}`, patchOp({ op: 'Replace', value: { active: 'true' } }));
    expect(on.body.active).toBe(true);
    const [first] = await invitationsOf(created.body.id);
    expect(first!.state).toBe('PENDING');
    await portal.smtp.waitFor(email);

    await scim.patch(`/Users/${created.body.id}`, patchOp({ op: 'Replace', path: 'active', value: 'False' }));
    expect((await invitationsOf(created.body.id)).map((i) => i.state)).toEqual(['REVOKED']);
    const late = await acceptLastInvitation(email);
    expect(late.status).toBe(409);
    expect((await account(created.body.id)).password_hash).toBeNull();

    // reactivated: a new invitation, which gives the member their password
    await scim.patch(`/Users/${created.body.id}`, patchOp({ op: 'Replace', path: 'active', value: true }));
    expect((await invitationsOf(created.body.id)).map((i) => i.state)).toEqual(['REVOKED', 'PENDING']);
    await portal.mailSettled();
    expect(mailsTo(email)).toHaveLength(2);
    expect((await acceptLastInvitation(email)).status).toBe(204);
    await signIn(portal.client(), { email, password: PASSWORD });
  });

  it('a new address before the member registered: the invitation goes to the new address', async () => {
    const email = unique('renamed');
    const created = await scim.post('/Users', entraUser(email));
    await portal.smtp.waitFor(email);
    const renamed = unique('renamed-new');
    const res = await scim.patch(`/Users/${created.body.id}`, patchOp({ op: 'replace', path: 'userName', value: renamed }));
    expect(res.status, res.text).toBe(200);
    expect(res.body.emails).toEqual([{ value: renamed, type: 'work', primary: true }]);
    expect((await invitationsOf(created.body.id)).map((i) => [i.state, i.email])).toEqual([
      ['REVOKED', email],
      ['PENDING', renamed],
    ]);
    // expired, it is sent again by a userManager like any invitation
    const [, pending] = await invitationsOf(created.body.id);
    await portal.services.db.query(`UPDATE invitations SET expires_at = now() - interval '1 day' WHERE id = $1`, [pending!.id]);
    const resent = await f.userMgrA.client.put(`/api/invitations/${pending!.id}/resend`);
    expect(resent.status, resent.text).toBe(204);
    await portal.mailSettled();
    expect(mailsTo(renamed)).toHaveLength(2);
    expect((await acceptLastInvitation(renamed)).status).toBe(204);
    await signIn(portal.client(), { email: renamed, password: PASSWORD });
  });
});

describe('what a directory may change', () => {
  it('the organization’s allowed e-mail domains hold (400 invalidValue)', async () => {
    const strict = await createOrg(portal, f.tree.a, 'Strict');
    await f.admin.client.put(`/api/organizations/${strict.id}/allowed-email-domains`, { allowed_email_domains: ['strict.example'] });
    const refused = await scim.post('/Users', entraUser(unique('outsider'), { [ORGANIZATION_EXTENSION]: { organizationId: strict.id } }));
    expectScimError(refused, 400, 'invalidValue');
    const allowed = await scim.post(
      '/Users',
      entraUser(unique('insider', 'strict.example'), { [ORGANIZATION_EXTENSION]: { organizationId: strict.id } }),
    );
    expect(allowed.status, allowed.text).toBe(201);
    // nor does a move bring an address the organization does not allow
    const elsewhere = await scim.post('/Users', entraUser(unique('mover')));
    const move = await scim.patch(
      `/Users/${elsewhere.body.id}`,
      patchOp({ op: 'replace', path: `${ORGANIZATION_EXTENSION}:organizationId`, value: strict.id }),
    );
    expectScimError(move, 400, 'invalidValue');
  });

  it('a move to another organization of the subtree keeps the rights it allows and ends the sessions', async () => {
    // the provider's administrator's token: it holds the apps' rights the member has
    const provider = new Directory(portal, (await makeToken(f.admin.client, f.tree.a.id, 'Provider')).token);
    const email = unique('moving');
    const created = await provider.post('/Users', entraUser(email));
    expect((await acceptLastInvitation(email)).status).toBe(204);
    // a right of an app the new organization does not have
    const limited = await createOrg(portal, f.tree.a, 'Limited', { apps: ['media-library'] });
    await portal.services.db.query(`UPDATE memberships SET rights = $2 WHERE id = $1`, [
      created.body.id,
      JSON.stringify({ media_library: { user_access: true }, loyalty: { user_access: true } }),
    ]);
    const browser = await signIn(portal.client(), { email, password: PASSWORD });
    const move = patchOp({ op: 'replace', path: `${ORGANIZATION_EXTENSION}:organizationId`, value: limited.id });
    // a token whose maker lacks those rights may not move the member
    expectScimError(await scim.patch(`/Users/${created.body.id}`, move), 403);
    const res = await provider.patch(`/Users/${created.body.id}`, move);
    expect(res.status, res.text).toBe(200);
    expect(res.body[ORGANIZATION_EXTENSION].organizationId).toBe(limited.id);
    expect((await browser.get('/api/identity/user-info')).status).toBe(401);
    const moved = await portal.services.db.query<{ organization_id: string; organization_path: string; rights: Record<string, any> }>(
      'SELECT organization_id, organization_path, rights FROM memberships WHERE id = $1',
      [created.body.id],
    );
    expect(moved.rows[0]).toMatchObject({ organization_id: limited.id, organization_path: limited.path });
    expect(moved.rows[0]!.rights.media_library.user_access).toBe(true);
    expect(moved.rows[0]!.rights.loyalty.user_access).toBe(false);
    const me = await signIn(portal.client(), { email, password: PASSWORD });
    expect((await me.get('/api/identity/user-info')).body.organizationId).toBe(limited.id);
  });
});
