import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDealerIdp, type DealerIdp } from '../support/dealer-idp.js';
import { NO_LOGIN_LIMITS, startPortal, type TestPortal } from '../support/portal.js';
import { enrolTotp, totpCode } from '../factors/support.js';
import { Browser, buildDealerTree, createConnection, createPerson, verifyDomain, type DealerTree, type Person } from './support.js';

/**
 * The tree's second-factor policy covers the members who sign in through a connection
 * (docs/second-factors.md): an ID token whose amr says "mfa" satisfies it; otherwise the portal's
 * own second step follows, as after a password (their factor, or setting one up first).
 */
let portal: TestPortal;
let idp: DealerIdp;
let tree: DealerTree;
let dealerManager: Person;
/** the recovery codes of single@mfa.example's authenticator app */
let codes: string[] = [];

beforeAll(async () => {
  idp = await startDealerIdp();
  portal = await startPortal(NO_LOGIN_LIMITS);
  idp.addClient({
    client_id: 'portal',
    client_secret: 'dealer-secret-0123456789abcdef',
    redirect_uris: [`${portal.url}/api/identity/login-external-callback`],
  });
  tree = await buildDealerTree(portal);
  await verifyDomain(portal, tree.dealer.id, 'mfa.example');
  dealerManager = await createPerson(portal, tree.dealer, 'chief@other.example', { manager: 'organization' });
  await createConnection(dealerManager.client, tree.dealer.id, {
    name: 'Dealer MFA',
    issuer: idp.issuer,
    client_id: 'portal',
    client_secret: 'dealer-secret-0123456789abcdef',
    domains: ['mfa.example'],
  });
  for (const who of ['strong', 'single', 'early']) {
    await createPerson(portal, tree.farm, `${who}@mfa.example`, { password: null });
  }
  idp.addAccount({ sub: 'sub-strong', email: 'strong@mfa.example', email_verified: true, amr: ['pwd', 'mfa'] });
  idp.addAccount({ sub: 'sub-single', email: 'single@mfa.example', email_verified: true, amr: ['pwd'] });
  idp.addAccount({ sub: 'sub-early', email: 'early@mfa.example', email_verified: true });
});
afterAll(async () => {
  await portal?.close();
  await idp?.close();
});

/** What the account's sessions started by a sign-in prove (not those the test made directly). */
const sessionAmr = async (email: string) =>
  (
    await portal.services.db.query<{ amr: string[] }>(
      `SELECT s.amr FROM sessions s JOIN users u ON u.id = s.user_id WHERE lower(u.email) = lower($1) AND cardinality(s.amr) > 0
       ORDER BY s.created_at DESC`,
      [email],
    )
  ).rows.map((r) => r.amr);

describe('second factors through a connection', () => {
  it('requiring a second factor ends the single-factor sessions of the members who signed in through the connection', async () => {
    const b = new Browser(portal.url, idp);
    expect((await b.signIn('early@mfa.example', 'sub-early')).pathname).toBe('/');
    expect(await sessionAmr('early@mfa.example')).toEqual([['fed']]);
    const policy = await dealerManager.client.put(`/api/organizations/${tree.dealer.id}/second-factor-policy`, { required: true });
    expect(policy.status, policy.text).toBe(200);
    expect((await b.portal.get('/api/identity/user-info')).status).toBe(401);
  });

  it('an ID token whose amr says "mfa" satisfies the policy: the session starts at once, proven fed + mfa', async () => {
    const b = new Browser(portal.url, idp);
    const landing = await b.signIn('strong@mfa.example', 'sub-strong');
    expect(landing.toString()).toBe(`${portal.url}/`);
    expect((await b.portal.get('/api/identity/user-info')).status).toBe(200);
    expect(await sessionAmr('strong@mfa.example')).toEqual([['fed', 'mfa']]);
  });

  it('without "mfa", the sign-in continues to the portal’s second step: enrolment first, then the factor', async () => {
    const b = new Browser(portal.url, idp);
    const landing = await b.signIn('single@mfa.example', 'sub-single');
    expect(landing.pathname).toBe('/login');
    expect(landing.searchParams.get('next_step')).toBe('enrol_second_factor');
    // no session yet: only the pending sign-in, which may set up a factor
    expect((await b.portal.get('/api/identity/user-info')).status).toBe(401);
    expect(b.portal.cookies.get('pp_second_step')).toBeTruthy();
    const { secret, answer, recoveryCodes } = await enrolTotp(b.portal);
    codes = recoveryCodes;
    expect(answer.valid_return_url).toBeNull();
    expect((await b.portal.get('/api/identity/user-info')).body.email).toBe('single@mfa.example');
    expect(await sessionAmr('single@mfa.example')).toEqual([['fed', 'otp', 'mfa']]);

    // the next sign-in asks for the factor it has
    const again = new Browser(portal.url, idp);
    const second = await again.signIn('single@mfa.example', 'sub-single');
    expect(second.searchParams.get('next_step')).toBe('second_factor');
    expect((await again.portal.get('/api/identity/user-info')).status).toBe(401);
    const done = await again.portal.post('/api/identity/second-factor', { code: totpCode(secret, 1) });
    expect(done.status, done.text).toBe(200);
    expect((await again.portal.get('/api/identity/user-info')).body.email).toBe('single@mfa.example');
  });

  it('keeps where the sign-in was going through the second step', async () => {
    const b = new Browser(portal.url, idp);
    const step = await b.portal.post('/api/identity/email-login', { email: 'single@mfa.example', return_path: '/profile' });
    expect(new URL(step.body.external_login).searchParams.get('returnPath')).toBe('/profile');
    const landing = await b.signInAt(step.body.external_login, 'sub-single');
    expect(landing.searchParams.get('returnPath')).toBe('/profile');
    // the app's codes of these time steps are used up: a recovery code
    const done = await b.portal.post('/api/identity/second-factor', { code: codes[0] });
    expect(done.status, done.text).toBe(200);
    expect(done.body.valid_return_url).toBe('/profile');
  });
});
