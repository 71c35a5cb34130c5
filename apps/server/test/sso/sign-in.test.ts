import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDealerIdp, type DealerIdp } from '../support/dealer-idp.js';
import { NO_LOGIN_LIMITS, startPortal, type TestPortal } from '../support/portal.js';
import { login } from '../support/sign-in.js';
import { DCR_TOKEN, discover, redeemCode, registerClient, startAuthorization } from '../oidc/support.js';
import {
  Browser,
  buildDealerTree,
  createConnection,
  createPerson,
  PASSWORD,
  verifyDomain,
  type DealerTree,
  type Person,
} from './support.js';

/**
 * Signing in through a dealer's connection end to end (docs/dealer-identity.md, "Single sign-on
 * per organization"): the e-mail step routes the address (home-realm discovery), the browser goes
 * to the dealer's provider (a second oidc-provider) and back through the callback to a session.
 * The connection lives on the dealer (the middle organization); its members sit below it.
 */
let portal: TestPortal;
let idp: DealerIdp;
let tree: DealerTree;
let noord: string; // the connection of noord.example, a confidential client, no just in time
let jit: string; // the connection of jit.example, a public client, just in time
let dealerManager: Person;
let regionManager: Person;
let farmer: Person;
let neighbour: Person;

beforeAll(async () => {
  idp = await startDealerIdp();
  portal = await startPortal({ ...NO_LOGIN_LIMITS, DCR_INITIAL_ACCESS_TOKEN: DCR_TOKEN });
  const callback = `${portal.url}/api/identity/login-external-callback`;
  idp.addClient({ client_id: 'portal', client_secret: 'dealer-secret-0123456789abcdef', redirect_uris: [callback] });
  idp.addClient({ client_id: 'portal-public', redirect_uris: [callback] });
  tree = await buildDealerTree(portal);
  for (const domain of ['noord.example', 'jit.example']) await verifyDomain(portal, tree.dealer.id, domain);
  await verifyDomain(portal, tree.sibling.id, 'zuid.example');
  dealerManager = await createPerson(portal, tree.dealer, 'chief@noord.example', { manager: 'both' });
  regionManager = await createPerson(portal, tree.region, 'region.chief@noord.example', { manager: 'both' });
  farmer = await createPerson(portal, tree.farm, 'boer@noord.example');
  // a member of the sibling dealer with an address of the same domain
  neighbour = await createPerson(portal, tree.sibling, 'buur@noord.example');
  await createPerson(portal, tree.sibling, 'chief@zuid.example', { manager: 'both' });
  const created = await createConnection(dealerManager.client, tree.dealer.id, {
    name: 'Noord Entra ID',
    issuer: idp.issuer,
    client_id: 'portal',
    client_secret: 'dealer-secret-0123456789abcdef',
    domains: ['noord.example'],
  });
  noord = created.body.id;
  jit = (
    await createConnection(dealerManager.client, tree.dealer.id, {
      name: 'Noord JIT',
      issuer: idp.issuer,
      client_id: 'portal-public',
      domains: ['jit.example'],
      just_in_time: true,
    })
  ).body.id;
  for (const account of [
    { sub: 'sub-boer', email: 'boer@noord.example', given_name: 'Bram', family_name: 'Boer' },
    { sub: 'sub-else', email: 'else@noord.example' },
    { sub: 'sub-buur', email: 'buur@noord.example' },
    { sub: 'sub-unverified', email: 'unverified@noord.example', email_verified: false },
    { sub: 'sub-mallory', email: 'chief@zuid.example' },
    { sub: 'sub-stranger', email: 'stranger@noord.example' },
    { sub: 'sub-invitee', email: 'invitee@noord.example', given_name: 'Iris', family_name: 'Invitee' },
    { sub: 'sub-registrant', email: 'registrant@noord.example' },
    { sub: 'sub-new', email: 'New.Person@jit.example', given_name: 'Nina', family_name: 'New' },
    { sub: 'sub-rp', email: 'rp@noord.example' },
  ]) {
    idp.addAccount({ email_verified: true, ...account });
  }
});
afterAll(async () => {
  await portal?.close();
  await idp?.close();
});

const browser = (headers: Record<string, string> = {}) => new Browser(portal.url, idp, headers);

describe('signing in through a connection', () => {
  it('routes a member of a grandchild to the connection at the e-mail step, with login_hint; signs in; links the account', async () => {
    const b = browser();
    const step = await b.portal.post('/api/identity/email-login', { email: 'Boer@noord.example' });
    const challenge = new URL(step.body.external_login);
    expect(`${challenge.origin}${challenge.pathname}`).toBe(`${portal.url}/api/identity/challenge-external-login`);
    expect(challenge.searchParams.get('connection')).toBe(noord);
    expect(challenge.searchParams.get('loginHint')).toBe('Boer@noord.example');
    const upstream = await b.get(challenge.toString());
    const authorize = new URL(upstream.headers.get('location')!);
    expect(authorize.origin).toBe(idp.issuer);
    expect(authorize.searchParams.get('login_hint')).toBe('Boer@noord.example');
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('client_id')).toBe('portal');

    const landing = await b.signInAt(authorize.toString(), 'sub-boer');
    expect(landing.toString()).toBe(`${portal.url}/`);
    const me = await b.portal.get('/api/identity/user-info');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ email: farmer.email, organizationId: tree.farm.id, externalIdentityProvider: noord });
    const { rows } = await portal.services.db.query<{ external_subject: string; password_hash: string | null }>(
      'SELECT external_subject, password_hash FROM users WHERE id = $1',
      [farmer.userId],
    );
    // linked, and its password dropped
    expect(rows[0]).toEqual({ external_subject: 'sub-boer', password_hash: null });
    const session = await portal.services.db.query<{ amr: string[] }>('SELECT amr FROM sessions WHERE user_id = $1', [farmer.userId]);
    expect(session.rows.map((r) => r.amr)).toContainEqual(['fed']);
  });

  it('refuses the password step for a routed address, exactly like a wrong password', async () => {
    const routed = await createPerson(portal, tree.region, 'pw.holder@noord.example');
    const res = await login(portal.client(), { email: routed.email, password: PASSWORD });
    expect(res.status).toBe(400);
    expect(res.body.i18NTranslationKey).toBe('invalid_login');
  });

  it('a sibling’s member with the same domain is not served: the e-mail step answers as for an unknown address, the password step takes their password', async () => {
    const step = await portal.client().post('/api/identity/email-login', { email: neighbour.email });
    const unknown = await portal.client().post('/api/identity/email-login', { email: 'nobody.here@noord.example' });
    const challenge = (body: { external_login: string | null }) => new URL(body.external_login!).searchParams.get('connection');
    expect(step.body.external_login).toBeTruthy();
    expect(challenge(step.body)).toBe(challenge(unknown.body));
    // the login page's "sign in with a password" asks for the password step
    const asked = await portal.client().post('/api/identity/email-login', { email: neighbour.email, password_login: true });
    expect(asked.body.external_login).toBeNull();
    const res = await login(portal.client(), { email: neighbour.email, password: PASSWORD });
    expect(res.status, res.text).toBe(200);
    // and the dealer's provider cannot sign them in either: their account is not of its subtree
    const b = browser();
    const landing = await b.signInAt(`${portal.url}/api/identity/challenge-external-login?connection=${noord}`, 'sub-buur');
    expect(await b.loginError(landing)).toEqual(
      expect.objectContaining({ error: 'sso_no_account', params: { connection: 'Noord Entra ID' } }),
    );
    const { rows } = await portal.services.db.query<{ external_idp: string | null }>('SELECT external_idp FROM users WHERE id = $1', [
      neighbour.userId,
    ]);
    expect(rows[0]!.external_idp).toBeNull();
  });

  it('refuses an address the provider did not confirm: another address than the one typed, unverified, another domain', async () => {
    const typed = await createPerson(portal, tree.region, 'typed@noord.example');
    const cases: [string | null, string][] = [
      [typed.email, 'sub-else'], // the provider signed in someone else of the domain
      ['unverified@noord.example', 'sub-unverified'],
      [null, 'sub-mallory'], // a dealer's provider asserting an address of another dealer's domain
    ];
    for (const [email, account] of cases) {
      const b = browser();
      const landing = email
        ? await b.signIn(email, account)
        : await b.signInAt(`${portal.url}/api/identity/challenge-external-login?connection=${noord}`, account);
      expect(landing.pathname, account).toBe('/login');
      expect(await b.loginError(landing)).toEqual(
        expect.objectContaining({ error: 'sso_email_not_confirmed', params: { connection: 'Noord Entra ID' } }),
      );
      expect((await b.portal.get('/api/identity/user-info')).status).toBe(401);
    }
  });

  it('without just in time, an unknown address of the domain is refused with sso_no_account naming the connection', async () => {
    const b = browser();
    const landing = await b.signIn('stranger@noord.example', 'sub-stranger');
    expect(await b.loginError(landing)).toEqual(
      expect.objectContaining({ error: 'sso_no_account', params: { connection: 'Noord Entra ID' } }),
    );
    expect((await portal.services.db.query(`SELECT 1 FROM users WHERE email = 'stranger@noord.example'`)).rowCount).toBe(0);
  });

  it('with just in time, an unknown address becomes a member without rights of the connection’s organization (public client, PKCE)', async () => {
    const b = browser({ 'accept-language': 'nl-NL,nl;q=0.9,en;q=0.5' });
    const landing = await b.signIn('new.person@jit.example', 'sub-new');
    expect(landing.toString()).toBe(`${portal.url}/`);
    const me = await b.portal.get('/api/identity/user-info');
    expect(me.body).toMatchObject({
      email: 'New.Person@jit.example',
      firstName: 'Nina',
      lastName: 'New',
      languageCode: 'nl',
      organizationId: tree.dealer.id,
      externalIdentityProvider: jit,
      userManager: false,
      organizationManager: false,
    });
    const { rows } = await portal.services.db.query<{ action: string; after: Record<string, unknown> }>(
      `SELECT action, after FROM audit_log WHERE target_id = $1`,
      [jit],
    );
    expect(rows.map((r) => r.action)).toEqual(['sso_connection.create', 'sso_connection.member_joined']);
    expect(rows[1]!.after).toMatchObject({ email_address: 'New.Person@jit.example', connection_name: 'Noord JIT' });
    // the second sign-in finds the account by its subject
    const again = browser();
    expect((await again.signIn('new.person@jit.example', 'sub-new')).pathname).toBe('/');
    expect((await portal.services.db.query(`SELECT 1 FROM users WHERE lower(email) = 'new.person@jit.example'`)).rowCount).toBe(1);
  });

  it('accepts an invitation by signing in through the connection', async () => {
    const invited = await regionManager.client.post(`/api/organizations/${tree.region.id}/invitations`, {
      email_address: 'invitee@noord.example',
      language_code: 'de',
      rights: { partner_portal: { user_user_manager: true } },
    });
    expect(invited.status, invited.text).toBe(201);
    // the invitation leads to the sign-in: the page of external identities
    expect(invited.body.invitation.is_external_identity_provider).toBe(true);
    const mail = await portal.smtp.waitFor('invitee@noord.example');
    expect(mail.links.some((l) => l.includes('/invitation-external-identity/'))).toBe(true);

    const b = browser();
    const landing = await b.signIn('invitee@noord.example', 'sub-invitee');
    expect(landing.pathname).toBe('/');
    const me = await b.portal.get('/api/identity/user-info');
    expect(me.body).toMatchObject({
      email: 'invitee@noord.example',
      firstName: 'Iris',
      languageCode: 'de',
      organizationId: tree.region.id,
      userManager: true,
      externalIdentityProvider: noord,
    });
    const invitation = await portal.client().get(`/api/invitations/${invited.body.invitation.invitation_id}`);
    expect(invitation.body.invitation_state).toBe('ACCEPTED');
  });

  it('the invitation page’s way: registered without a password, then linked at the first sign-in', async () => {
    const invited = await regionManager.client.post(`/api/organizations/${tree.region.id}/invitations`, {
      email_address: 'registrant@noord.example',
      language_code: 'en',
    });
    const mail = await portal.smtp.waitFor('registrant@noord.example');
    const link = new URL(mail.links.find((l) => l.includes('/invitation-external-identity/'))!);
    const id = invited.body.invitation.invitation_id;
    const accepted = await portal.client().put(`/api/invitations/${id}/accept`, {
      invitation_code: link.searchParams.get('code'),
      first_name: 'Rita',
      last_name: 'Registrant',
      language_code: 'en',
      opt_in_for_newsletter: false,
      accept_agreement: true,
    });
    expect(accepted.status, accepted.text).toBe(204);
    const { rows } = await portal.services.db.query<{ external_idp: string }>(
      `SELECT external_idp FROM users WHERE email = 'registrant@noord.example'`,
    );
    expect(rows[0]!.external_idp).toBe(noord);
    // the web app's next step (apps/web/src/features/invitations/lib/registration.ts externalLoginUrl)
    const b = browser();
    const landing = await b.signInAt(
      `${portal.url}/api/identity/challenge-external-login?returnUrl=%2F&invitationLogin=${id}`,
      'sub-registrant',
    );
    expect(landing.pathname).toBe('/');
    expect((await b.portal.get('/api/identity/user-info')).body).toMatchObject({ email: 'registrant@noord.example', firstName: 'Rita' });
    expect(idp.loginHints).toContain('registrant@noord.example');
  });

  it('completes a client’s authorization through the connection; the login context names the connection', async () => {
    await createPerson(portal, tree.farm, 'rp@noord.example');
    const redirect = 'http://127.0.0.1:8126/callback';
    const registered = await registerClient(portal, { redirect_uris: [redirect] });
    const config = await discover(portal, registered.client_id);
    const start = await startAuthorization(config, redirect, { login_hint: 'rp@noord.example' });
    const b = browser();
    const loginPage = await b.follow(start.url.toString());
    const returnUrl = new URL(loginPage.url).searchParams.get('ReturnUrl')!;
    expect(returnUrl).toBeTruthy();
    const context = await b.portal.get(`/api/identity/context?returnUrl=${encodeURIComponent(returnUrl)}`);
    expect(context.body).toMatchObject({ login_hint: 'rp@noord.example', idp: 'Noord Entra ID' });
    const step = await b.portal.post('/api/identity/email-login', { email: 'rp@noord.example', return_url: returnUrl });
    const back = await b.signInAt(step.body.external_login, 'sub-rp');
    expect(back.toString().startsWith(redirect)).toBe(true);
    const tokens = await redeemCode(config, start, back.toString());
    expect(tokens.claims()).toMatchObject({ email: 'rp@noord.example', amr: ['fed'] });
  });

  it('a domain that lost its verification stops routing, even a linked account', async () => {
    await portal.services.db.query(`UPDATE organization_domains SET verified_at = NULL WHERE domain = 'jit.example'`);
    const step = await portal.client().post('/api/identity/email-login', { email: 'new.person@jit.example' });
    expect(step.body.external_login).toBeNull();
    const b = browser();
    const landing = await b.signInAt(`${portal.url}/api/identity/challenge-external-login?connection=${jit}`, 'sub-new');
    expect((await b.loginError(landing)).error).toBe('sso_email_not_confirmed');
    await verifyDomain(portal, tree.dealer.id, 'jit.example');
    expect((await portal.client().post('/api/identity/email-login', { email: 'new.person@jit.example' })).body.external_login).toContain(
      jit,
    );
  });
});
