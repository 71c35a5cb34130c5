import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Secret, TOTP } from 'otpauth';
import { createOrg, startDealerIdp, type DealerIdp } from '@partner-portal/server/test-kit';
import { checkScreen, open, openContext, usePortalAndBrowser } from '../support/portal.js';

/**
 * Signing in through a dealer's single sign-on connection in Chromium (docs/dealer-identity.md,
 * "Single sign-on per organization"): the e-mail step sends the browser to the dealer's identity
 * provider (the test kit's, its sign-in page a form), which sends it back signed in; a named
 * refusal is shown on the login page with the connection's name; an account with a factor of the
 * portal continues there with its second step.
 */
const e2e = usePortalAndBrowser();
let idp: DealerIdp;
const code = (secret: string, timestamp = Date.now()) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp });
let totpSecret = '';

beforeAll(async () => {
  const { portal } = e2e;
  const db = portal.services.db;
  idp = await startDealerIdp();
  idp.addClient({
    client_id: 'portal',
    client_secret: 'dealer-secret-0123456789abcdef',
    redirect_uris: [`${portal.url}/api/identity/login-external-callback`],
  });
  const root = (
    await db.query<{ id: string; path: string; name: string }>('SELECT id, path, name FROM organizations WHERE id = $1', [
      portal.rootOrganizationId,
    ])
  ).rows[0]!;
  const dealer = await createOrg(portal, root, 'Dealer Heide', { canCreate: true });
  const farm = await createOrg(portal, dealer, 'Farm Heide');
  await db.query(
    `INSERT INTO organization_domains (organization_id, domain, verification_value, verified_at) VALUES ($1, 'heide.example', 'x', now())`,
    [dealer.id],
  );
  const admin = await portal.sessionFor(portal.adminUserId);
  const created = await admin.post(`/api/organizations/${dealer.id}/sso-connections`, {
    name: 'Heide Entra ID',
    issuer: idp.issuer,
    client_id: 'portal',
    client_secret: 'dealer-secret-0123456789abcdef',
    domains: ['heide.example'],
    just_in_time: false,
  });
  expect(created.status, created.text).toBe(201);
  for (const [email, first] of [
    ['anna@heide.example', 'Anna'],
    ['ben@heide.example', 'Ben'],
  ] as const) {
    const user = await db.query<{ id: string }>(
      `INSERT INTO users (email, first_name, last_name, language_code, terms_accepted_at) VALUES ($1, $2, 'Heide', 'en', now()) RETURNING id`,
      [email, first],
    );
    await db.query(`INSERT INTO memberships (organization_id, user_id, email, organization_path, rights) VALUES ($1, $2, $3, $4, '{}')`, [
      farm.id,
      user.rows[0]!.id,
      email,
      farm.path,
    ]);
    if (first === 'Ben') {
      // an authenticator app set up while the account still had a password of the portal
      const ben = await portal.sessionFor(user.rows[0]!.id);
      const started = await ben.post('/api/factors/totp');
      totpSecret = started.body.secret as string;
      expect((await ben.post('/api/factors/totp/confirm', { code: code(totpSecret) })).status).toBe(200);
    }
  }
  idp.addAccount({ sub: 'sub-anna', email: 'anna@heide.example', email_verified: true, given_name: 'Anna' });
  idp.addAccount({ sub: 'sub-ben', email: 'ben@heide.example', email_verified: true, given_name: 'Ben' });
  idp.addAccount({ sub: 'sub-nobody', email: 'nobody@heide.example', email_verified: true });
});
afterAll(() => idp?.close());

/** The e-mail step, then the dealer's sign-in page: its form signs in the account. */
async function signInThroughDealer(page: import('playwright-core').Page, email: string, account: string) {
  await page.getByLabel('E-mail address').fill(email);
  await page.getByRole('button', { name: 'Next' }).click();
  await page.waitForURL((url) => url.origin === idp.issuer);
  await page.getByLabel('Account').fill(account);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

describe('single sign-on in the browser', () => {
  it('goes to the dealer’s provider from the e-mail step and comes back signed in', async () => {
    const context = await openContext(e2e.browser, e2e.portal);
    const { page, watch } = await open(context, '/login');
    await signInThroughDealer(page, 'anna@heide.example', 'sub-anna');
    await page.waitForURL((url) => url.origin === e2e.portal.url && url.pathname === '/');
    await page.getByText('All relevant applications for partners and dealers').waitFor();
    expect(watch.problems).toEqual([]);
    await context.close();
  });

  it('shows a refusal with the connection’s name', async () => {
    const context = await openContext(e2e.browser, e2e.portal);
    const { page, watch } = await open(context, '/login');
    await signInThroughDealer(page, 'nobody@heide.example', 'sub-nobody');
    await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.has('loginError'));
    await page
      .getByRole('alert')
      .filter({ hasText: 'Login failed' })
      .getByText('Heide Entra ID signed you in, but no portal account belongs to this address')
      .waitFor();
    await checkScreen(page, watch, 'sso-refused');
    await context.close();
  });

  it('continues with the portal’s second step for an account that has a factor', async () => {
    const context = await openContext(e2e.browser, e2e.portal);
    const { page, watch } = await open(context, '/login');
    await signInThroughDealer(page, 'ben@heide.example', 'sub-ben');
    await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('next_step') === 'second_factor');
    // the next step's code (accepted for clock drift): the current step's may be the one that
    // confirmed the app in beforeAll, and a code is refused the second time
    await page.getByLabel('Code').fill(code(totpSecret, Date.now() + 30_000));
    await page.getByLabel('Code').press('Enter');
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByText('All relevant applications for partners and dealers').waitFor();
    expect(watch.problems.filter((p) => !/status of 401/.test(p))).toEqual([]);
    await context.close();
  });
});
