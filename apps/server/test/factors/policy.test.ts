import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/password-hashing.js';
import { startPortal, type TestPortal } from '../support/portal.js';
import { buildFixture, type ActorRef, type Fixture } from '../organizations/fixtures.js';
import { DCR_TOKEN, discover, followUntil, registerClient, startAuthorization } from '../oidc/support.js';
import { enrolTotp, passwordSteps, totpCode } from './support.js';

/**
 * The second-factor policy on a three-level tree (dealer-a → north → farm-1): set on the middle
 * level, it holds below it and not above it; a child cannot lift it; members under it without a
 * factor set one up at their next sign-in and have no session before.
 */
let portal: TestPortal;
let f: Fixture;
const PASSWORD = 'Tr1cky-Horse-Battery';

beforeAll(async () => {
  portal = await startPortal({ DCR_INITIAL_ACCESS_TOKEN: DCR_TOKEN });
  f = await buildFixture(portal);
  const hash = await hashPassword(PASSWORD);
  await portal.services.db.query('UPDATE users SET password_hash = $1 WHERE password_hash IS NULL', [hash]);
});
afterAll(() => portal?.close());

/** The actor with a new session (one that a policy did not end). */
const fresh = async (actor: ActorRef): Promise<ActorRef> => ({ ...actor, client: await portal.sessionFor(actor.userId) });
const policyOf = (actor: ActorRef, organizationId: string) => actor.client.get(`/api/organizations/${organizationId}/second-factor-policy`);
const setPolicy = (actor: ActorRef, organizationId: string, required: boolean) =>
  actor.client.put(`/api/organizations/${organizationId}/second-factor-policy`, { required });

/** The organizations the actor's tree marks as requiring a second factor (set there, not inherited). */
async function markedInTree(actor: ActorRef): Promise<string[]> {
  const res = await actor.client.get('/api/organizations/tree');
  expect(res.status).toBe(200);
  // the mark is left out where no requirement is set, never sent as false
  expect(res.text).not.toContain('"second_factor_required":false');
  const marked: string[] = [];
  const visit = (node: { key: string; second_factor_required?: boolean; children: unknown[] }) => {
    if (node.second_factor_required === true) marked.push(node.key);
    for (const child of node.children) visit(child as typeof node);
  };
  visit(res.body);
  return marked.sort();
}

describe('a requirement set on the middle level', () => {
  it('holds for the organization and its subtree, not above it, and says where it comes from', async () => {
    const set = await setPolicy(f.orgMgrA, f.tree.north.id, true);
    expect(set.status, set.text).toBe(200);
    expect(set.body).toEqual({ organization_id: f.tree.north.id, required: true, set_here: true, inherited_from: null });

    // (mgrNorth's session ended with the requirement: a fresh one, as after a sign-in with a factor)
    const farm = await policyOf(await fresh(f.mgrNorth), f.tree.farm.id);
    expect(farm.body).toEqual({
      organization_id: f.tree.farm.id,
      required: true,
      set_here: false,
      inherited_from: { organization_id: f.tree.north.id, organization_name: 'North', organization_path: f.tree.north.path },
    });
    expect((await policyOf(f.orgMgrA, f.tree.a.id)).body).toMatchObject({ required: false, set_here: false, inherited_from: null });
    expect((await policyOf(f.orgMgrA, f.tree.south.id)).body.required).toBe(false);

    const { rows } = await portal.services.db.query<{ action: string; organization_id: string }>(
      "SELECT action, organization_id FROM audit_log WHERE action LIKE 'organization.second_factor_policy.%'",
    );
    expect(rows).toEqual([{ action: 'organization.second_factor_policy.require', organization_id: f.tree.north.id }]);
  });

  it('ends the single-factor sessions below it; above it nothing changes', async () => {
    expect((await f.farmer.client.get('/api/identity/user-info')).status).toBe(401);
    expect((await f.mgrNorth.client.get('/api/identity/user-info')).status).toBe(401);
    expect((await f.plainA.client.get('/api/identity/user-info')).status).toBe(200);
  });

  it('leads a member below it to set up a factor at sign-in, with no session before', async () => {
    const client = portal.client();
    const answer = await passwordSteps(client, f.farmer.email, PASSWORD);
    expect(answer).toMatchObject({ next_step: 'enrol_second_factor', valid_return_url: null });
    expect((await client.get('/api/identity/user-info')).status).toBe(401);
    expect((await client.get('/api/portal')).status).toBe(401);
    await enrolTotp(client);
    expect((await client.get('/api/identity/user-info')).body.email).toBe(f.farmer.email);
    expect((await client.get('/api/factors')).body).toMatchObject({ required: true, totp: { enabled: true } });

    // the next sign-in asks for a code
    const next = portal.client();
    expect((await passwordSteps(next, f.farmer.email, PASSWORD)).next_step).toBe('second_factor');
  });

  it('does not touch a member above it', async () => {
    const client = portal.client();
    const answer = await passwordSteps(client, f.plainA.email, PASSWORD);
    expect(answer.next_step ?? null).toBeNull();
    expect((await client.get('/api/identity/user-info')).status).toBe(200);
  });
});

describe('a child cannot loosen', () => {
  it('refuses to lift an inherited requirement, and one set from above', async () => {
    const mgrNorth = await fresh(f.mgrNorth);
    const inherited = await setPolicy(mgrNorth, f.tree.farm.id, false);
    expect(inherited.status).toBe(409);
    expect(inherited.body.i18NTranslationKey).toBe('second_factor_policy_inherited');
    const above = await setPolicy(mgrNorth, f.tree.north.id, false);
    expect(above.status).toBe(409);
    expect(above.body.i18NTranslationKey).toBe('second_factor_policy_set_above');
    expect((await policyOf(mgrNorth, f.tree.north.id)).body.required).toBe(true);
  });

  it('lets a child tighten, and keeps its own requirement when the parent lifts its one', async () => {
    const mgrNorth = await fresh(f.mgrNorth);
    expect(await markedInTree(f.orgMgrA)).toEqual([f.tree.north.id]);
    const tighten = await setPolicy(mgrNorth, f.tree.farm.id, true);
    expect(tighten.status, tighten.text).toBe(200);
    expect(tighten.body).toMatchObject({ required: true, set_here: true, inherited_from: { organization_id: f.tree.north.id } });
    // the tree marks where each requirement is set (a cached tree is rebuilt after the change)
    expect(await markedInTree(f.orgMgrA)).toEqual([f.tree.north.id, f.tree.farm.id].sort());
    const lift = await setPolicy(f.orgMgrA, f.tree.north.id, false);
    expect(lift.status, lift.text).toBe(200);
    expect(lift.body).toMatchObject({ required: false, set_here: false });
    expect((await policyOf(f.orgMgrA, f.tree.farm.id)).body).toMatchObject({ required: true, set_here: true, inherited_from: null });
    expect(await markedInTree(f.orgMgrA)).toEqual([f.tree.farm.id]);
    // the manager at the level that set it may lift it
    expect((await setPolicy(mgrNorth, f.tree.farm.id, false)).body.required).toBe(false);
    expect(await markedInTree(f.orgMgrA)).toEqual([]);
  });
});

describe('who may see and set the policy', () => {
  it('managers of the subtree read it; only organizationManagers of the subtree set it', async () => {
    expect((await policyOf(f.userMgrA, f.tree.north.id)).status).toBe(200);
    expect((await policyOf(f.plainA, f.tree.north.id)).status).toBe(403);
    expect((await setPolicy(f.userMgrA, f.tree.north.id, true)).status).toBe(403);
    expect((await setPolicy(f.mgrB, f.tree.north.id, true)).status).toBe(403);
    expect((await setPolicy(f.mgrB, f.tree.a.id, true)).status).toBe(403);
    expect((await policyOf(f.orgMgrA, '00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await f.orgMgrA.client.put(`/api/organizations/${f.tree.north.id}/second-factor-policy`, {})).status).toBe(400);
    expect((await portal.client().get(`/api/organizations/${f.tree.north.id}/second-factor-policy`)).status).toBe(401);
  });

  it("the provider's administrators require it everywhere (on the root organization)", async () => {
    const admin = await fresh(f.admin);
    const set = await setPolicy(admin, f.tree.root.id, true);
    expect(set.status, set.text).toBe(200);
    expect((await policyOf(await fresh(f.mgrB), f.tree.b.id)).body.inherited_from).toMatchObject({ organization_id: f.tree.root.id });
    const client = portal.client();
    expect((await passwordSteps(client, f.plainA.email, PASSWORD)).next_step).toBe('enrol_second_factor');
    // nobody below can lift it
    const orgMgrA = await fresh(f.orgMgrA);
    expect((await setPolicy(orgMgrA, f.tree.a.id, false)).body.i18NTranslationKey).toBe('second_factor_policy_inherited');
    expect((await setPolicy(admin, f.tree.root.id, false)).body.required).toBe(false);
  });
});

describe('clients', () => {
  it('a member under a requirement reaches no client with a single-factor session: signs in again and sets up a factor', async () => {
    const config = await discover(portal, (await registerClient(portal)).client_id);
    const redirect = 'http://127.0.0.1:8123/callback';
    // the manager's own session survives setting the requirement on their own organization
    const orgMgrA = await fresh(f.orgMgrA);
    expect((await setPolicy(orgMgrA, f.tree.a.id, true)).status).toBe(200);
    expect((await orgMgrA.client.get('/api/identity/user-info')).status).toBe(200);
    const start = await startAuthorization(config, redirect);
    const loginPage = await followUntil(orgMgrA.client, start.url.toString(), `${portal.url}/login`);
    const returnUrl = new URL(loginPage).searchParams.get('ReturnUrl')!;
    expect((await orgMgrA.client.get('/api/identity/user-info')).status).toBe(401);
    await orgMgrA.client.post('/api/identity/email-login', { email: f.orgMgrA.email, return_url: returnUrl });
    const login = await orgMgrA.client.post('/api/identity/login', { email: f.orgMgrA.email, password: PASSWORD, return_url: returnUrl });
    expect(login.body.next_step).toBe('enrol_second_factor');
    const started = await orgMgrA.client.post('/api/factors/totp');
    const confirmed = await orgMgrA.client.post('/api/factors/totp/confirm', { code: totpCode(started.body.secret) });
    expect(confirmed.body.valid_return_url).toBe(returnUrl);
    const callback = await followUntil(orgMgrA.client, confirmed.body.valid_return_url, redirect);
    expect(new URL(callback).searchParams.get('code')).toBeTruthy();
  });
});
