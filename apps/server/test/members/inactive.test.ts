import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastSignInOf, moveLastSignInBack } from '../support/clock.js';
import { NO_LOGIN_LIMITS, startPortal, type TestPortal } from '../support/portal.js';
import { setPassword, signIn } from '../support/sign-in.js';
import { buildFixture, createMember, createOrg, rights, type ActorRef, type Fixture, type Org } from '../organizations/fixtures.js';

/**
 * Last sign-in and the inactive-member filter: sign-in times are set by real sign-ins
 * (POST /api/identity/login), then moved into the past with the test-only clock helper.
 */
let portal: TestPortal;
let f: Fixture;
let dealer: Org;
let branch: Org;
const PASSWORD = 'Tr1cky-Horse-Battery';

beforeAll(async () => {
  portal = await startPortal(NO_LOGIN_LIMITS);
  f = await buildFixture(portal);
  dealer = await createOrg(portal, f.tree.a, 'Inactive Dealer', { canCreate: true });
  branch = await createOrg(portal, dealer, 'Inactive Branch');
});
afterAll(() => portal?.close());

async function memberWithPassword(org: Org, label: string): Promise<ActorRef> {
  const m = await createMember(portal, org, label, rights());
  await setPassword(portal, m.userId, PASSWORD);
  return m;
}

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64) Firefox/131.0';

const emailsOf = (body: { members: { email_address: string }[] }) => body.members.map((m) => m.email_address).sort();

describe('last sign-in', () => {
  it('is recorded at a password sign-in and shown in the organization page, the search and the export', async () => {
    const m = await memberWithPassword(dealer, 'recorded');
    expect(await lastSignInOf(portal, m.userId)).toBeNull();
    const before = Date.now();
    await signIn(portal.client(), { email: m.email, password: PASSWORD }, { userAgent: FIREFOX });
    const recorded = await lastSignInOf(portal, m.userId);
    expect(recorded).not.toBeNull();
    expect(recorded!.getTime()).toBeGreaterThanOrEqual(before - 5_000);

    const page = await f.userMgrA.client.get(`/api/organizations/${dealer.id}`);
    expect(page.status).toBe(200);
    const listed = page.body.members.find((x: { id: string }) => x.id === m.memberId);
    expect(new Date(listed.last_sign_in_at).getTime()).toBe(recorded!.getTime());

    const search = await f.userMgrA.client.get(`/api/members/search?organizationId=${dealer.id}&q=recorded`);
    expect(search.status).toBe(200);
    expect(search.body.members).toHaveLength(1);
    expect(search.body.members[0].last_sign_in_at).toBe(recorded!.toISOString());

    const csv = await f.userMgrA.client.get(`/api/members/export?output=csv&organizationId=${dealer.id}`);
    expect(csv.status).toBe(200);
    const lines = csv.text
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    expect(lines[0]!.split(',').at(-1)).toBe('last_sign_in_at');
    expect(
      lines
        .find((l) => l.includes(m.email))!
        .split(',')
        .at(-1),
    ).toBe(recorded!.toISOString());
  });

  it('is null for a member who never signed in (a session made without signing in does not count)', async () => {
    const m = await memberWithPassword(dealer, 'never');
    await portal.sessionFor(m.userId);
    const search = await f.userMgrA.client.get(`/api/members/search?organizationId=${dealer.id}&q=never`);
    expect(search.body.members[0].last_sign_in_at).toBeNull();
  });
});

describe('GET /api/members/search?inactiveDays=N', () => {
  it('lists the members of the subtree not signed in for N days, never-signed-in counting as inactive', async () => {
    const fresh = await memberWithPassword(dealer, 'fresh');
    const month = await memberWithPassword(branch, 'month');
    const quarter = await memberWithPassword(branch, 'quarter');
    const year = await memberWithPassword(dealer, 'year');
    const never = await memberWithPassword(branch, 'nosignin');
    for (const m of [fresh, month, quarter, year])
      await signIn(portal.client(), { email: m.email, password: PASSWORD }, { userAgent: FIREFOX });
    await moveLastSignInBack(portal, month.userId, 45);
    await moveLastSignInBack(portal, quarter.userId, 120);
    await moveLastSignInBack(portal, year.userId, 400);

    const inactive = async (days: number, organizationId = dealer.id) => {
      const res = await f.userMgrA.client.get(`/api/members/search?organizationId=${organizationId}&inactiveDays=${days}&pageSize=200`);
      expect(res.status).toBe(200);
      expect(res.body.invitations).toEqual([]);
      expect(res.body.total).toBe(res.body.members.length);
      return res.body;
    };
    // the two members made by the first describe block: one signed in now, one never
    const neverBefore = (await f.userMgrA.client.get(`/api/members/search?organizationId=${dealer.id}&q=never`)).body.members[0]
      .email_address;
    expect(emailsOf(await inactive(30))).toEqual([month.email, quarter.email, year.email, never.email, neverBefore].sort());
    expect(emailsOf(await inactive(90))).toEqual([quarter.email, year.email, never.email, neverBefore].sort());
    expect(emailsOf(await inactive(180))).toEqual([year.email, never.email, neverBefore].sort());
    expect(emailsOf(await inactive(365))).toEqual([year.email, never.email, neverBefore].sort());
    // the subtree of the branch only
    expect(emailsOf(await inactive(30, branch.id))).toEqual([month.email, quarter.email, never.email].sort());
    // combined with the e-mail text
    const text = await f.userMgrA.client.get(`/api/members/search?organizationId=${dealer.id}&inactiveDays=90&q=quarter`);
    expect(emailsOf(text.body)).toEqual([quarter.email]);

    // signing in again makes a member active
    await signIn(portal.client(), { email: year.email, password: PASSWORD }, { userAgent: FIREFOX });
    expect(emailsOf(await inactive(365))).toEqual([never.email, neverBefore].sort());
  });

  it('accepts only 30, 90, 180 or 365 (400), and keeps the subtree rules (403 outside it)', async () => {
    const bad = await f.userMgrA.client.get(`/api/members/search?organizationId=${dealer.id}&inactiveDays=7`);
    expect(bad.status).toBe(400);
    expect(bad.body.i18NTranslationKey).toBe('validation_failed');
    expect((await f.mgrB.client.get(`/api/members/search?organizationId=${dealer.id}&inactiveDays=30`)).status).toBe(403);
    expect((await portal.client().get(`/api/members/search?organizationId=${dealer.id}&inactiveDays=30`)).status).toBe(401);
  });
});
