import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPortal, type TestPortal } from '../support/portal.js';
import { buildWorld, type OrgRow, type World } from '../security/support/world.js';
import { rootOrg } from '../organizations/fixtures.js';
import { enrolTotp } from './support.js';

/**
 * A userManager's reset of a member's second factors follows the delegation rules of every other
 * change to a member (docs/security.md, "Delegated administration"): never a member who holds a
 * right the actor lacks, refusals audited, and the provider's administrator out of reach of a
 * lesser user manager of the root organization.
 */
let portal: TestPortal;
let world: World;
let root: OrgRow;

beforeAll(async () => {
  portal = await startPortal();
  world = await buildWorld(portal);
  root = await rootOrg(portal);
});
afterAll(() => portal?.close());

const db = () => portal.services.db;

/** A member with an authenticator app set up (through the API, with a session of their own). */
async function memberWithApp(org: OrgRow, rights: object = {}) {
  const member = await world.fresh.member(org, rights);
  await enrolTotp(await portal.sessionFor(member.userId));
  return member;
}

const hasApp = async (userId: string) =>
  (await db().query('SELECT 1 FROM user_totp WHERE user_id = $1 AND confirmed_at IS NOT NULL', [userId])).rowCount === 1;

const auditOf = async (action: string, targetId: string) =>
  (
    await db().query<{ actor_user_id: string; after: Record<string, unknown> | null }>(
      'SELECT actor_user_id, after FROM audit_log WHERE action = $1 AND target_id = $2 ORDER BY id',
      [action, targetId],
    )
  ).rows;

describe('resetting the second factors of a member with more rights', () => {
  it('is refused (403) and audited when the member is also an organizationManager; the factors stay', async () => {
    const userManager = await world.client('userManager');
    const above = await memberWithApp(world.dealerA, { partner_portal: { user_user_manager: true, user_sub_organization_manager: true } });
    const reset = await userManager.delete(`/api/members/${above.membershipId}/second-factors`);
    expect(reset.status).toBe(403);
    expect(reset.body.i18NTranslationKey).toBe('cannot_manage_member_with_more_rights');
    expect(await hasApp(above.userId)).toBe(true);
    expect(await auditOf('member.second_factors.reset.refused', above.membershipId)).toEqual([
      expect.objectContaining({
        actor_user_id: world.users.userManager.id,
        after: expect.objectContaining({ refused: 'cannot_manage_member_with_more_rights' }),
      }),
    ]);
    expect(await auditOf('member.second_factors.reset', above.membershipId)).toEqual([]);
  });

  it("is refused when the member holds an app's right the actor lacks; full partner-portal rights do not cover it", async () => {
    const loyal = await memberWithApp(world.north, { loyalty: { user_access: true } });
    for (const actor of ['userManager', 'ancestorManager'] as const) {
      const reset = await (await world.client(actor)).delete(`/api/members/${loyal.membershipId}/second-factors`);
      expect(reset.status, actor).toBe(403);
      expect(reset.body.i18NTranslationKey).toBe('cannot_manage_member_with_more_rights');
    }
    expect(await hasApp(loyal.userId)).toBe(true);
    expect((await auditOf('member.second_factors.reset.refused', loyal.membershipId)).map((r) => r.after?.refused)).toEqual([
      'cannot_manage_member_with_more_rights',
      'cannot_manage_member_with_more_rights',
    ]);
    // the provider's administrator holds every right
    const admin = await portal.sessionFor(portal.adminUserId);
    expect((await admin.delete(`/api/members/${loyal.membershipId}/second-factors`)).status).toBe(204);
    expect(await hasApp(loyal.userId)).toBe(false);
  });

  it('is allowed for a member with the same rights or fewer, and audited', async () => {
    const userManager = await world.client('userManager');
    for (const rights of [{}, { partner_portal: { user_user_manager: true } }]) {
      const peer = await memberWithApp(world.north, rights);
      const reset = await userManager.delete(`/api/members/${peer.membershipId}/second-factors`);
      expect(reset.status, reset.text).toBe(204);
      expect(await hasApp(peer.userId)).toBe(false);
      expect(await auditOf('member.second_factors.reset', peer.membershipId)).toEqual([
        expect.objectContaining({ actor_user_id: world.users.userManager.id, after: { totp: false, passkeys: 0 } }),
      ]);
    }
  });
});

describe('the root organization', () => {
  it("a userManager of the root organization cannot reset the provider administrator's factors (403, audited)", async () => {
    const rootUserManager = await world.fresh.member(root, { partner_portal: { user_user_manager: true } });
    const client = await portal.sessionFor(rootUserManager.userId);
    await enrolTotp(await portal.sessionFor(portal.adminUserId));
    const adminMembership = (await db().query<{ id: string }>('SELECT id FROM memberships WHERE user_id = $1', [portal.adminUserId]))
      .rows[0]!.id;
    const reset = await client.delete(`/api/members/${adminMembership}/second-factors`);
    expect(reset.status).toBe(403);
    expect(reset.body.i18NTranslationKey).toBe('cannot_manage_member_with_more_rights');
    expect(await hasApp(portal.adminUserId)).toBe(true);
    expect((await auditOf('member.second_factors.reset.refused', adminMembership)).map((r) => r.after?.refused)).toEqual([
      'cannot_manage_member_with_more_rights',
    ]);
    // nobody resets their own factors through this route, not even the provider's administrator
    const admin = await portal.sessionFor(portal.adminUserId);
    expect((await admin.delete(`/api/members/${adminMembership}/second-factors`)).status).toBe(403);
    expect(await hasApp(portal.adminUserId)).toBe(true);
  });

  it('a reset changes no rights: a user manager of the root organization keeps being one (no last-manager refusal applies)', async () => {
    const second = await memberWithApp(root, { partner_portal: { user_user_manager: true } });
    const admin = await portal.sessionFor(portal.adminUserId);
    const reset = await admin.delete(`/api/members/${second.membershipId}/second-factors`);
    expect(reset.status, reset.text).toBe(204);
    expect(await hasApp(second.userId)).toBe(false);
    const { rows } = await db().query<{ rights: { partner_portal?: { user_user_manager?: boolean } } }>(
      'SELECT rights FROM memberships WHERE id = $1',
      [second.membershipId],
    );
    expect(rows[0]!.rights.partner_portal?.user_user_manager).toBe(true);
  });
});

describe('signing out a member with more rights', () => {
  it('is refused (403) and audited, like a reset; the member stays signed in; the provider administrator may', async () => {
    const above = await world.fresh.member(world.dealerA, {
      partner_portal: { user_user_manager: true, user_sub_organization_manager: true },
    });
    const session = await portal.sessionFor(above.userId);
    const userManager = await world.client('userManager');
    const signOut = await userManager.post(`/api/members/${above.membershipId}/sign-out`);
    expect(signOut.status).toBe(403);
    expect(signOut.body.i18NTranslationKey).toBe('cannot_manage_member_with_more_rights');
    expect((await session.get('/api/identity/user-info')).status).toBe(200);
    expect((await auditOf('member.sign_out.refused', above.membershipId)).map((r) => r.after?.refused)).toEqual([
      'cannot_manage_member_with_more_rights',
    ]);
    expect(await auditOf('member.sign_out', above.membershipId)).toEqual([]);
    const admin = await portal.sessionFor(portal.adminUserId);
    expect((await admin.post(`/api/members/${above.membershipId}/sign-out`)).status).toBe(204);
    expect((await session.get('/api/identity/user-info')).status).toBe(401);
  });
});
