import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDealerIdp, type DealerIdp } from '../support/dealer-idp.js';
import { NO_LOGIN_LIMITS, startPortal, type TestPortal } from '../support/portal.js';
import { Browser, buildDealerTree, createConnection, createPerson, verifyDomain, type DealerTree, type Person } from './support.js';

/**
 * A manager's test sign-in (docs/dealer-identity.md, "Single sign-on per organization"):
 * challenge-external-login?connection=…&test=1&returnPath=… with a manager's session goes to the
 * provider; the callback checks the answer like a sign-in, signs nobody in and changes nothing,
 * and returns to returnPath with sso_test=ok&sso_test_email=… or sso_test=<error key>.
 */
let portal: TestPortal;
let idp: DealerIdp;
let tree: DealerTree;
let connectionId: string;
let dealerManager: Person;
let regionManager: Person;
let userManager: Person;
let siblingManager: Person;
let farmer: Person;

beforeAll(async () => {
  idp = await startDealerIdp();
  portal = await startPortal(NO_LOGIN_LIMITS);
  idp.addClient({
    client_id: 'portal',
    client_secret: 'dealer-secret-0123456789abcdef',
    redirect_uris: [`${portal.url}/api/identity/login-external-callback`],
  });
  tree = await buildDealerTree(portal);
  await verifyDomain(portal, tree.dealer.id, 'test.example');
  dealerManager = await createPerson(portal, tree.dealer, 'chief@test.example', { manager: 'both' });
  regionManager = await createPerson(portal, tree.region, 'region@test.example', { manager: 'organization' });
  userManager = await createPerson(portal, tree.dealer, 'users@test.example', { manager: 'user' });
  siblingManager = await createPerson(portal, tree.sibling, 'chief@sibling.example', { manager: 'both' });
  farmer = await createPerson(portal, tree.farm, 'farmer@test.example');
  connectionId = (
    await createConnection(dealerManager.client, tree.dealer.id, {
      name: 'Test Entra',
      issuer: idp.issuer,
      client_id: 'portal',
      client_secret: 'dealer-secret-0123456789abcdef',
      domains: ['test.example'],
    })
  ).body.id;
  idp.addAccount({ sub: 'sub-farmer', email: 'farmer@test.example', email_verified: true });
  idp.addAccount({ sub: 'sub-nobody', email: 'nobody@test.example', email_verified: true });
  idp.addAccount({ sub: 'sub-unverified', email: 'farmer@test.example', email_verified: false });
});
afterAll(async () => {
  await portal?.close();
  await idp?.close();
});

/** A browser signed in as the person (their session cookie). */
function browserOf(person: Person): Browser {
  const b = new Browser(portal.url, idp);
  b.portal.cookies.set('pp_session', person.client.cookies.get('pp_session')!);
  return b;
}

const returnPath = () => `/manage-organization/${tree.dealer.id}?tab=sso`;
const testUrl = (path = returnPath()) =>
  `${portal.url}/api/identity/challenge-external-login?connection=${connectionId}&test=1&returnPath=${encodeURIComponent(path)}`;

describe('a manager’s test sign-in', () => {
  it('checks the answer like a sign-in and returns sso_test=ok with the address; nobody is signed in, nothing linked', async () => {
    const b = browserOf(dealerManager);
    const challenge = await b.get(testUrl());
    expect(challenge.status).toBe(303);
    // the provider asks for a sign-in even when it has a session of its own
    expect(new URL(challenge.headers.get('location')!).searchParams.get('prompt')).toBe('login');
    const back = await b.signInAt(testUrl(), 'sub-farmer');
    expect(back.pathname).toBe(`/manage-organization/${tree.dealer.id}`);
    expect(Object.fromEntries(back.searchParams)).toEqual({ tab: 'sso', sso_test: 'ok', sso_test_email: 'farmer@test.example' });
    expect((await b.portal.get('/api/identity/user-info')).body.email).toBe(dealerManager.email);
    const { rows } = await portal.services.db.query<{ external_idp: string | null }>('SELECT external_idp FROM users WHERE id = $1', [
      farmer.userId,
    ]);
    expect(rows[0]!.external_idp).toBeNull();
  });

  it('returns the error key a sign-in would get', async () => {
    const nobody = await browserOf(dealerManager).signInAt(testUrl(), 'sub-nobody');
    expect(nobody.searchParams.get('sso_test')).toBe('sso_no_account');
    const unverified = await browserOf(dealerManager).signInAt(testUrl('/somewhere'), 'sub-unverified');
    expect(unverified.pathname).toBe('/somewhere');
    expect(unverified.searchParams.get('sso_test')).toBe('sso_email_not_confirmed');
    expect((await portal.services.db.query(`SELECT 1 FROM users WHERE email = 'nobody@test.example'`)).rowCount).toBe(0);
  });

  it('a manager of a child organization may test the inherited connection', async () => {
    const back = await browserOf(regionManager).signInAt(testUrl(), 'sub-farmer');
    expect(back.searchParams.get('sso_test')).toBe('ok');
  });

  it('only with the session of an organizationManager of the connection’s part of the tree', async () => {
    expect((await new Browser(portal.url, idp).get(testUrl())).status).toBe(401);
    expect((await browserOf(userManager).get(testUrl())).status).toBe(403);
    expect((await browserOf(siblingManager).get(testUrl())).status).toBe(403);
    expect((await browserOf(farmer).get(testUrl())).status).toBe(403);
  });

  it('a return path outside the web app is not followed', async () => {
    const back = await browserOf(dealerManager).signInAt(testUrl('https://evil.example/x'), 'sub-farmer');
    expect(back.origin).toBe(portal.url);
    expect(back.pathname).toBe('/');
    expect(back.searchParams.get('sso_test')).toBe('ok');
  });
});
