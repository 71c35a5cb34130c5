import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDealerIdp, type DealerIdp } from '../support/dealer-idp.js';
import { NO_LOGIN_LIMITS, startPortal, type TestPortal } from '../support/portal.js';
import { createOrg } from '../organizations/fixtures.js';
import { Browser, buildDealerTree, createConnection, createPerson, verifyDomain, type DealerTree, type Person } from './support.js';

/**
 * A connection decides who signs in as each member it serves (the operating contract, "Single
 * sign-on per organization"; docs/security.md, the findings of 2026-11): creating, switching,
 * re-pointing or deleting one is acting on each of them, refused unless the caller may manage
 * every member it reaches before and after; members are told; connections can be prepared
 * inactive and tested first; one domain may have connections on several levels; and the e-mail
 * step gives an address of a served domain the same answer whether or not it has an account
 * elsewhere in the tree.
 */
let portal: TestPortal;
let idp: DealerIdp;
let attackerIdp: DealerIdp;
let tree: DealerTree;
let owner: Person; // userManager and organizationManager of the dealer
let orgOnly: Person; // organizationManager only
let userManager: Person; // userManager of the dealer: holds user_user_manager, which orgOnly lacks
let farmer: Person;
let connectionId: string;

const SECRET = 'dealer-secret-0123456789abcdef';
const emailStep = (email: string) => portal.client().post('/api/identity/email-login', { email });
const connectionOf = (body: { external_login: string | null }) =>
  body.external_login ? new URL(body.external_login).searchParams.get('connection') : null;

beforeAll(async () => {
  idp = await startDealerIdp();
  attackerIdp = await startDealerIdp();
  portal = await startPortal({ ...NO_LOGIN_LIMITS });
  const callback = `${portal.url}/api/identity/login-external-callback`;
  idp.addClient({ client_id: 'portal', client_secret: SECRET, redirect_uris: [callback] });
  attackerIdp.addClient({ client_id: 'portal', client_secret: SECRET, redirect_uris: [callback] });
  tree = await buildDealerTree(portal);
  await verifyDomain(portal, tree.dealer.id, 'farmtech.example');
  await verifyDomain(portal, tree.dealer.id, 'levels.example');
  owner = await createPerson(portal, tree.dealer, 'chief@farmtech.example', { manager: 'both' });
  orgOnly = await createPerson(portal, tree.dealer, 'ops@farmtech.example', { manager: 'organization' });
  userManager = await createPerson(portal, tree.dealer, 'users@farmtech.example', { manager: 'user' });
  farmer = await createPerson(portal, tree.farm, 'boer@farmtech.example');
  await portal.services.db.query(`UPDATE users SET language_code = 'de' WHERE id = $1`, [farmer.userId]);
  idp.addAccount({ sub: 'sub-users', email: 'users@farmtech.example', email_verified: true });
  idp.addAccount({ sub: 'sub-boer', email: 'boer@farmtech.example', email_verified: true });
});
afterAll(async () => {
  await portal?.close();
  await idp?.close();
  await attackerIdp?.close();
});

const body = (overrides: Record<string, unknown> = {}) => ({
  name: 'Farmtech Entra ID',
  issuer: idp.issuer,
  client_id: 'portal',
  client_secret: SECRET,
  domains: ['farmtech.example'],
  ...overrides,
});
const connectionPath = (id: string) => `/api/organizations/${tree.dealer.id}/sso-connections/${id}`;

describe('who may change how members sign in', () => {
  it('an organizationManager who is no userManager cannot make a connection that serves a userManager: 403, audited, nothing made', async () => {
    const res = await createConnection(orgOnly.client, tree.dealer.id, body(), 403);
    expect(res.body).toMatchObject({ i18NTranslationKey: 'cannot_manage_member_with_more_rights' });
    const made = await portal.services.db.query('SELECT 1 FROM sso_connections WHERE organization_id = $1', [tree.dealer.id]);
    expect(made.rowCount).toBe(0);
    const refused = await portal.services.db.query<{ action: string }>(
      `SELECT action FROM audit_log WHERE actor_email = $1 AND action LIKE 'sso_connection.create%'`,
      [orgOnly.email],
    );
    expect(refused.rows.length).toBeGreaterThan(0);
  });

  it('a connection made inactive serves nobody: the e-mail step and the password step stay as before', async () => {
    const res = await createConnection(owner.client, tree.dealer.id, body({ active: false }));
    connectionId = res.body.id;
    const listed = await owner.client.get(`/api/organizations/${tree.dealer.id}/sso-connections`);
    expect(listed.body.find((c: { id: string }) => c.id === connectionId)).toMatchObject({ active: false });
    expect((await emailStep(userManager.email)).body.external_login).toBeNull();
    const login = await portal.client().post('/api/identity/login', { email: farmer.email, password: 'Dealer-Passw0rd!x' });
    expect(login.status, login.text).toBe(200);
    // nobody was told: nothing changed for anyone
    expect(portal.smtp.to(farmer.email).filter((m) => m.subject.includes('Verbindung')).length).toBe(0);
  });

  it('its managers see who will sign in through it before switching it on', async () => {
    const res = await owner.client.get(`${connectionPath(connectionId)}/members`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.total).toBe(4);
    expect(res.body.members.map((m: { email: string }) => m.email).sort()).toEqual(
      [owner.email, orgOnly.email, userManager.email, farmer.email].sort(),
    );
    expect(res.body.members.find((m: { email: string }) => m.email === farmer.email)).toMatchObject({
      organization_id: tree.farm.id,
      organization_name: tree.farm.name,
    });
    expect((await userManager.client.get(`${connectionPath(connectionId)}/members`)).status).toBe(403);
  });

  it('its manager tests it while inactive, and only a test signs in through it', async () => {
    const b = new Browser(portal.url, idp);
    b.portal.cookies.set('pp_session', owner.client.cookies.get('pp_session')!);
    const url = `${portal.url}/api/identity/challenge-external-login?connection=${connectionId}&test=1&returnPath=${encodeURIComponent('/')}`;
    const back = await b.signInAt(url, 'sub-boer');
    expect(Object.fromEntries(back.searchParams)).toMatchObject({ sso_test: 'ok', sso_test_email: farmer.email });
    // a real sign-in through the inactive connection is refused
    const real = new Browser(portal.url, idp);
    const landing = await real.signInAt(`${portal.url}/api/identity/challenge-external-login?connection=${connectionId}`, 'sub-boer');
    expect((await real.loginError(landing)).error).toBe('sso_email_not_confirmed');
  });

  it('switching it on is refused to the organizationManager alone, allowed to the owner; every member served is told in their language', async () => {
    const refused = await orgOnly.client.patch(connectionPath(connectionId), { active: true });
    expect(refused.status).toBe(403);
    expect(refused.body.i18NTranslationKey).toBe('cannot_manage_member_with_more_rights');
    const res = await owner.client.patch(connectionPath(connectionId), { active: true });
    expect(res.status, res.text).toBe(204);
    expect(connectionOf((await emailStep(userManager.email)).body)).toBe(connectionId);
    const told = await portal.smtp.waitFor(farmer.email, (m) => m.subject.includes('Farmtech Entra ID'));
    expect(told.subject).toBe('Ihr Partner-Portal-Konto meldet sich jetzt über Farmtech Entra ID an');
    await portal.smtp.waitFor(userManager.email, (m) => m.subject.includes('Farmtech Entra ID'));
  });

  it('pointing it at another provider is refused to the organizationManager alone: the userManager cannot be taken over', async () => {
    for (const patch of [{ issuer: attackerIdp.issuer }, { client_secret: 'other-secret-0123456789' }, { domains: ['levels.example'] }]) {
      const res = await orgOnly.client.patch(connectionPath(connectionId), patch);
      expect(res.status, JSON.stringify(patch)).toBe(403);
      expect(res.body.i18NTranslationKey).toBe('cannot_manage_member_with_more_rights');
    }
    expect((await orgOnly.client.delete(connectionPath(connectionId))).status).toBe(403);
    // renaming decides nothing about who signs in
    const renamed = await orgOnly.client.patch(connectionPath(connectionId), { name: 'Farmtech Entra' });
    expect(renamed.status, renamed.text).toBe(204);
    await owner.client.patch(connectionPath(connectionId), { name: 'Farmtech Entra ID' });
  });

  it('a provider that refuses the person: the login page names the connection and whom to ask', async () => {
    const b = new Browser(portal.url, idp);
    const step = await b.portal.post('/api/identity/email-login', { email: userManager.email });
    const page = await b.follow(step.body.external_login as string);
    const refused = await b.idp.request('POST', page.url, { raw: 'cancel=1', contentType: 'application/x-www-form-urlencoded' });
    expect(refused.status, refused.text).toBe(303);
    const back = await b.follow(new URL(refused.headers.get('location')!, idp.issuer).toString());
    expect(await b.loginError(new URL(back.url))).toEqual(
      expect.objectContaining({ error: 'sso_sign_in_failed', params: { connection: 'Farmtech Entra ID', organization: tree.dealer.name } }),
    );
  });

  it('a new provider does not inherit the old one’s subjects, and the members are told it changed', async () => {
    const b = new Browser(portal.url, idp);
    await b.signIn(userManager.email, 'sub-users');
    const linked = await portal.services.db.query<{ external_subject: string | null }>('SELECT external_subject FROM users WHERE id = $1', [
      userManager.userId,
    ]);
    expect(linked.rows[0]!.external_subject).toBe('sub-users');
    const res = await owner.client.patch(connectionPath(connectionId), { issuer: attackerIdp.issuer });
    expect(res.status, res.text).toBe(204);
    const after = await portal.services.db.query<{ external_subject: string | null; external_idp: string | null }>(
      'SELECT external_subject, external_idp FROM users WHERE id = $1',
      [userManager.userId],
    );
    expect(after.rows[0]).toEqual({ external_subject: null, external_idp: connectionId });
    const told = await portal.smtp.waitFor(farmer.email, (m) => m.subject.includes('Anmeldung beim Partner Portal wurde geändert'));
    expect(told.text).toContain('Farmtech Entra ID');
    // the other provider issuing the old subject with another address signs in nobody
    attackerIdp.addAccount({ sub: 'sub-users', email: 'someone.else@farmtech.example', email_verified: true });
    const attacker = new Browser(portal.url, attackerIdp);
    const landing = await attacker.signInAt(`${portal.url}/api/identity/challenge-external-login?connection=${connectionId}`, 'sub-users');
    expect((await attacker.loginError(landing)).error).toBe('sso_no_account');
    await owner.client.patch(connectionPath(connectionId), { issuer: idp.issuer });
  });

  it('deleting it tells every member it served', async () => {
    const res = await owner.client.delete(connectionPath(connectionId));
    expect(res.status, res.text).toBe(204);
    const told = await portal.smtp.waitFor(farmer.email, (m) => m.subject.includes('nicht mehr über'));
    expect(told.text).toContain('Passwort vergessen');
    await portal.smtp.waitFor(owner.email, (m) => /removed/.test(m.subject));
    // after the delete, a new connection for the same domain is held to the same rule
    await createConnection(orgOnly.client, tree.dealer.id, body({ issuer: attackerIdp.issuer, name: 'Mine' }), 403);
  });
});

describe('one domain, many levels', () => {
  let region: string;
  let dealer: string;
  let regionChief: Person;
  let regionMember: Person;
  let dealerMember: Person;

  beforeAll(async () => {
    regionChief = await createPerson(portal, tree.region, 'chief@levels.example', { manager: 'both' });
    regionMember = await createPerson(portal, tree.farm, 'farm@levels.example');
    dealerMember = await createPerson(portal, tree.dealer, 'office@levels.example');
  });

  it('a sub-organization’s connection for its ancestor’s domain does not take it: the ancestor connects it too', async () => {
    region = (await createConnection(regionChief.client, tree.region.id, body({ name: 'Region IdP', domains: ['levels.example'] }))).body
      .id;
    dealer = (await createConnection(owner.client, tree.dealer.id, body({ name: 'Dealer IdP', domains: ['levels.example'] }))).body.id;
    expect(region).not.toBe(dealer);
  });

  it('the ancestor’s connection lists as its members only those no nearer connection serves', async () => {
    const res = await owner.client.get(`/api/organizations/${tree.dealer.id}/sso-connections/${dealer}/members`);
    const emails = res.body.members.map((m: { email: string }) => m.email);
    expect(emails).toContain(dealerMember.email);
    expect(emails).not.toContain(regionMember.email);
    expect(emails).not.toContain(regionChief.email);
  });

  it('a member signs in at the nearest connection above them; an address without an account at the verifying organization’s', async () => {
    expect(connectionOf((await emailStep(regionMember.email)).body)).toBe(region);
    expect(connectionOf((await emailStep(regionChief.email)).body)).toBe(region);
    expect(connectionOf((await emailStep(dealerMember.email)).body)).toBe(dealer);
    expect(connectionOf((await emailStep('new.person@levels.example')).body)).toBe(dealer);
  });

  it('an account elsewhere in the tree gets the same answer as an address without one', async () => {
    const elsewhere = await createOrg(portal, tree.root, 'Elsewhere levels', { canCreate: false });
    const stranger = await createPerson(portal, elsewhere, 'stranger@levels.example');
    const known = await emailStep(stranger.email);
    const unknown = await emailStep('never.seen@levels.example');
    expect(known.status).toBe(unknown.status);
    expect(connectionOf(known.body)).toBe(connectionOf(unknown.body));
    expect(Object.keys(known.body).sort()).toEqual(Object.keys(unknown.body).sort());
    // their password still works when they ask for the password step
    const step = await portal.client().post('/api/identity/email-login', { email: stranger.email, password_login: true });
    expect(step.body.external_login).toBeNull();
    const login = await portal.client().post('/api/identity/login', { email: stranger.email, password: 'Dealer-Passw0rd!x' });
    expect(login.status, login.text).toBe(200);
    // while an address the connection serves is refused at the password step like a wrong password
    const served = await portal.client().post('/api/identity/login', { email: dealerMember.email, password: 'Dealer-Passw0rd!x' });
    expect(served.body.i18NTranslationKey).toBe('invalid_login');
  });
});
