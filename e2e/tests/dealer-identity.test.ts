import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import {
  createMember,
  createOrg,
  startDealerIdp,
  startDnsServer,
  type ActorRef,
  type DealerIdp,
  type DnsServer,
  type Org,
} from '@partner-portal/server/test-kit';
import { axeProblems, newPage, whenStill, type PageWatch } from '../support/browser.js';
import { rootOrganization } from '../support/organizations.js';
import { openContext, openDialog, SCREENSHOTS, screenshot, signedIn, usePortalAndBrowser, type Viewport } from '../support/portal.js';
import { grid } from '../support/grid.js';

/**
 * Dealers bring their own identity, in Chromium against the real server, database, SMTP sink, a
 * DNS server and a dealer's identity provider of the test kit (docs/dealer-identity.md): an
 * organizationManager of a middle organization claims a domain and verifies it through DNS, adds a
 * connection to the dealer's provider and tests it; a member of a grandchild signs in through it
 * from the login page; a visitor asks for access from the login page and the userManager approves
 * it (the invitation e-mail caught). The "Domains and sign-in" section is axe clean and looked at
 * in Dutch and German at 390, 768 and 1280 px, and in Brazilian Portuguese once.
 */
const env: Record<string, string> = { LOGIN_RATE_LIMIT_PER_ACCOUNT: '100000', LOGIN_RATE_LIMIT_PER_IP: '100000' };
/** The test DNS server the portal asks (DNS_SERVERS): it serves the TXT records the test publishes. */
let dns: DnsServer;
// before the portal starts (usePortalAndBrowser reads the environment in its own beforeAll, after this one)
beforeAll(async () => {
  dns = await startDnsServer();
  env.DNS_SERVERS = dns.address;
});
const e2e = usePortalAndBrowser(env);
afterAll(async () => {
  await dns?.stop();
});

/** A middle organization of the tree, its child and grandchild; its manager holds both manager rights. */
let middle: Org;
let child: Org;
let grandchild: Org;
let manager: ActorRef;
/** A member of the grandchild with an address of the verified domain: they sign in through the dealer's provider. */
let worker: ActorRef;
const WORKER_EMAIL = 'sanne.smit@landbouw-oost-e2e.example';
/** The dealer's identity provider of the test kit (its browser form: input name="account", button "Sign in"). */
let idp: DealerIdp;
const CLIENT_ID = 'partner-portal-e2e';
const CLIENT_SECRET = 'dealer-client-secret-e2e-0123456789';
/** A domain the middle organization verified (straight in SQL): its visitors' requests are routed there. */
const REQUEST_DOMAIN = 'werkplaats-e2e.example';
/** The domain the middle organization's manager claims and verifies through the page; its people sign in through the dealer's provider. */
const SSO_DOMAIN = 'landbouw-oost-e2e.example';

let context: BrowserContext | undefined;
let page: Page | undefined;
let watch: PageWatch | undefined;

async function managerPage(options: { viewport?: Viewport; language?: string } = {}) {
  context = await signedIn(e2e.browser, e2e.portal, manager.userId, options);
  context.setDefaultTimeout(15_000);
  ({ page, watch } = await newPage(context));
  return page;
}

async function visitorPage(options: { viewport?: Viewport; language?: string } = {}) {
  context = await openContext(e2e.browser, e2e.portal, options);
  context.setDefaultTimeout(15_000);
  ({ page, watch } = await newPage(context));
  return page;
}

beforeAll(async () => {
  const root = await rootOrganization(e2e.portal);
  middle = await createOrg(e2e.portal, root, 'Landbouw Oost', { canCreate: true });
  child = await createOrg(e2e.portal, middle, 'Werkplaats Zwolle', { canCreate: true });
  grandchild = await createOrg(e2e.portal, child, 'Schuur Dalfsen');
  manager = await createMember(e2e.portal, middle, 'Mgr', (r) => {
    r.partner_portal.user_user_manager = true;
    r.partner_portal.user_sub_organization_manager = true;
  });
  worker = await createMember(e2e.portal, grandchild, 'Sanne', () => undefined);
  await e2e.portal.services.db.query('UPDATE users SET email = $2 WHERE id = $1', [worker.userId, WORKER_EMAIL]);
  await e2e.portal.services.db.query('UPDATE memberships SET email = $2 WHERE id = $1', [worker.memberId, WORKER_EMAIL]);
  idp = await startDealerIdp({
    accounts: [{ sub: 'sanne-at-dealer', email: WORKER_EMAIL, email_verified: true, given_name: 'Sanne', family_name: 'Smit' }],
    clients: [
      { client_id: CLIENT_ID, client_secret: CLIENT_SECRET, redirect_uris: [`${e2e.portal.url}/api/identity/login-external-callback`] },
    ],
  });
  await e2e.portal.services.db.query(
    `INSERT INTO organization_domains (organization_id, domain, verification_value, verified_at, checked_at)
     VALUES ($1, $2, 'partner-portal-verification=e2e', now(), now())`,
    [middle.id, REQUEST_DOMAIN],
  );
});

afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail' && page) {
    await screenshot(page, `failure-dealer-identity-${ctx.task.name.slice(0, 30).replace(/\W+/g, '-')}`).catch(() => undefined);
    console.log('FAILURE at', page.url(), watch?.problems);
  }
  await context?.close();
  context = undefined;
  page = undefined;
});

afterAll(async () => {
  await context?.close();
  await idp?.close();
});

const toast = (p: Page, text: string | RegExp) => p.locator('.mantine-Notification-root').filter({ hasText: text }).first();

/** Axe, the console and the width of the page as it stands. */
async function expectClean(p: Page, w: PageWatch, what: string): Promise<void> {
  await whenStill(p);
  expect(await axeProblems(p), `axe on ${what}`).toEqual([]);
  expect(w.problems, `console on ${what}`).toEqual([]);
  const overflow = await p.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `horizontal overflow on ${what}`).toBeLessThanOrEqual(0);
}

describe('verified domains', () => {
  it('an organizationManager of a middle organization claims a domain, publishes its TXT record and verifies it; a child inherits it', async () => {
    const p = await managerPage();
    await p.goto(`/manage-organization/${middle.id}`);
    const section = p.getByTestId('dealer-identity');
    await section.getByRole('tab', { name: 'Domains' }).click();
    await section.getByRole('button', { name: 'Add domain' }).click();
    const dialog = await openDialog(p, 'Add a domain');
    // a public mail provider's domain is refused, translated, above the buttons
    await dialog.getByLabel('Domain').fill('Gmail.com');
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await dialog.getByRole('alert').filter({ hasText: 'Domains of public e-mail providers cannot be claimed' }).waitFor();
    await expectClean(p, watch!, 'the add-domain dialog');
    // read as the server reads it: lower case, without the trailing dot
    await dialog.getByLabel('Domain').fill(`${SSO_DOMAIN.toUpperCase()}.`);
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await toast(p, `${SSO_DOMAIN} added`).waitFor();
    await dialog.waitFor({ state: 'detached' });

    const card = section.locator(`[data-testid=domain][data-domain="${SSO_DOMAIN}"]`);
    await card.getByText('Not verified').waitFor();
    const name = (await card.getByTestId('txt-name').textContent())!;
    const value = (await card.getByTestId('txt-value').textContent())!;
    expect(name).toBe(`_partner-portal.${SSO_DOMAIN}`);
    expect(value).toMatch(/^partner-portal-verification=[A-Za-z0-9_-]{43}$/);
    await expectClean(p, watch!, 'an unverified domain');

    // before the record is published: the server's refusal, translated, in the card
    await card.getByRole('button', { name: `Verify now: ${SSO_DOMAIN}` }).click();
    await card.getByRole('alert').filter({ hasText: 'The TXT record was not found' }).waitFor();
    dns.set(name, value);
    await card.getByRole('button', { name: `Verify now: ${SSO_DOMAIN}` }).click();
    await toast(p, `${SSO_DOMAIN} is verified`).waitFor();
    await card.getByText('Verified', { exact: true }).waitFor();
    expect(await card.getAttribute('data-verified')).toBe('true');
    expect(await card.getByTestId('txt-value').count()).toBe(0);
    await screenshot(p, 'dealer-identity-domain-verified-1280');

    // the child sees it, read-only, named by the organization that verified it
    await p.goto(`/manage-organization/${child.id}`);
    const inherited = p.getByTestId('dealer-identity').locator(`[data-testid=domain][data-domain="${SSO_DOMAIN}"]`);
    await inherited.getByText('Verified by Landbouw Oost').waitFor();
    expect(await inherited.getByRole('button').count()).toBe(0);
  });
});

describe("single sign-on through the dealer's identity provider", () => {
  it('the organizationManager adds a connection for the verified domain (switched off) and tests it', async () => {
    const p = await managerPage();
    await p.goto(`/manage-organization/${middle.id}`);
    const section = p.getByTestId('dealer-identity');
    await section.getByRole('tab', { name: 'Sign-in connections' }).click();
    // the redirect URI to register at the provider, to copy
    expect(await section.getByTestId('redirect-uri').textContent()).toBe(`${e2e.portal.url}/api/identity/login-external-callback`);
    await section.getByRole('button', { name: 'Add connection' }).click();
    const dialog = await openDialog(p, 'Add a sign-in connection');
    // an empty form's errors: the issuer's example value stays grey, not the error's red of a typed value
    await dialog.getByRole('button', { name: 'Save' }).click();
    const issuer = dialog.getByLabel('Issuer URL');
    await expect.poll(() => issuer.getAttribute('aria-invalid')).toBe('true');
    const colours = await issuer.evaluate((el) => ({
      placeholder: getComputedStyle(el, '::placeholder').color,
      error: getComputedStyle(el.closest('.mantine-InputWrapper-root')!.querySelector('.mantine-InputWrapper-error')!).color,
    }));
    expect(colours.placeholder).not.toBe(colours.error);
    await dialog.getByLabel('Name').fill('Landbouw Oost Entra ID');
    await dialog.getByLabel('Issuer URL').fill(idp.issuer);
    await dialog.getByLabel('Client ID').fill(CLIENT_ID);
    await dialog.getByLabel('Client secret', { exact: true }).fill(CLIENT_SECRET);
    // the verified domains at or above are offered: this one is chosen
    await dialog.getByRole('checkbox', { name: SSO_DOMAIN }).check();
    await expectClean(p, watch!, 'the connection form');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await toast(p, 'Connection Landbouw Oost Entra ID added, switched off: test it, then switch it on').waitFor();
    const card = section.locator('[data-testid=sso-connection][data-name="Landbouw Oost Entra ID"]');
    await card.getByText(idp.issuer).waitFor();
    // made switched off: nobody signs in through it yet
    await card.getByText('Off', { exact: true }).waitFor();
    expect(await card.getAttribute('data-active')).toBe('false');
    await card.getByText('Client secret kept (never shown)').waitFor();
    expect(await card.textContent()).not.toContain(CLIENT_SECRET);
    await expectClean(p, watch!, 'the connections');

    // the test sign-in: through the provider and back to this page, which says how it went
    await card.getByRole('button', { name: 'Test sign-in with Landbouw Oost Entra ID' }).click();
    await p.waitForURL((url) => url.origin === idp.issuer);
    await p.locator('input[name="account"]').fill(WORKER_EMAIL);
    await p.getByRole('button', { name: 'Sign in' }).click();
    await p.waitForURL((url) => url.pathname === `/manage-organization/${middle.id}`);
    const outcome = p.getByTestId('sso-test-outcome');
    await outcome.getByText(`Landbouw Oost Entra ID confirmed ${WORKER_EMAIL}.`).waitFor();
    // the outcome's parameters are gone from the address; the manager is still the one signed in
    await expect.poll(() => new URL(p.url()).search).toBe('');
    const me = await p.context().request.get('/api/identity/user-info', { headers: { 'x-csrf': '1' } });
    expect(((await me.json()) as { email: string }).email).toBe(manager.email);
  });

  it('the organizationManager sees who the connection will serve and switches it on; the child lists it as inherited', async () => {
    const p = await managerPage();
    await p.goto(`/manage-organization/${middle.id}`);
    const section = p.getByTestId('dealer-identity');
    await section.getByRole('tab', { name: 'Sign-in connections' }).click();
    const card = section.locator('[data-testid=sso-connection][data-name="Landbouw Oost Entra ID"]');
    // switching it on shows who will sign in through it first
    await card.getByRole('button', { name: 'Switch on Landbouw Oost Entra ID' }).click();
    const confirm = await openDialog(p, 'Switch on Landbouw Oost Entra ID?');
    const served = confirm.getByTestId('connection-members');
    await served.getByText(WORKER_EMAIL, { exact: false }).waitFor();
    await expectClean(p, watch!, 'who the connection will serve');
    await screenshot(p, 'dealer-identity-switch-on-1280');
    await confirm.getByRole('button', { name: 'Switch on', exact: true }).click();
    await toast(p, 'Landbouw Oost Entra ID is on').waitFor();
    await expect.poll(() => card.getAttribute('data-active')).toBe('true');

    await p.goto(`/manage-organization/${child.id}`);
    const inherited = p.getByTestId('dealer-identity');
    await inherited.getByRole('tab', { name: 'Sign-in connections' }).click();
    const listed = inherited.locator('[data-testid=sso-connection][data-name="Landbouw Oost Entra ID"]');
    await listed.getByText('Set up by Landbouw Oost').waitFor();
    expect(await listed.getByRole('button').allTextContents()).toEqual(['Test sign-in']);
  });

  it('a member of a grandchild signs in from the login page through the provider and lands at home', async () => {
    const p = await visitorPage({ viewport: { width: 390, height: 844 } });
    await p.goto('/login');
    await p.getByLabel('E-mail address').fill(WORKER_EMAIL);
    await p.getByRole('button', { name: 'Next' }).click();
    await p.waitForURL((url) => url.origin === idp.issuer);
    await p.locator('input[name="account"]').fill(WORKER_EMAIL);
    await p.getByRole('button', { name: 'Sign in' }).click();
    await p.waitForURL((url) => url.origin === e2e.portal.url && url.pathname === '/');
    // the provider was told whom to expect
    expect(idp.loginHints).toContain(WORKER_EMAIL);
    const me = await p.context().request.get('/api/identity/user-info', { headers: { 'x-csrf': '1' } });
    expect(me.status()).toBe(200);
    expect(((await me.json()) as { email: string; organizationId: string }).organizationId).toBe(grandchild.id);
  });
});

describe('access requests', () => {
  const visitor = `visitor.one@${REQUEST_DOMAIN}`;

  it('a visitor whose password is refused asks for access from the login page; the same confirmation whatever happens', async () => {
    const p = await visitorPage({ viewport: { width: 390, height: 844 } });
    await p.goto('/login');
    await p.getByLabel('E-mail address').fill(visitor);
    await p.getByRole('button', { name: 'Next' }).click();
    await p.locator('input[name="password"]').fill('Not-the-right-one-1');
    await p.getByRole('button', { name: 'Log in' }).click();
    await p.getByRole('alert').filter({ hasText: 'Invalid login' }).waitFor();
    await p.getByRole('link', { name: `Ask for access for ${visitor}` }).click();
    await p.waitForURL((url) => url.pathname === '/request-access');
    await expect.poll(() => p.getByLabel('E-mail address').inputValue()).toBe(visitor);
    // the address came along: the first name is next
    await expect.poll(() => p.evaluate(() => document.activeElement?.getAttribute('autocomplete'))).toBe('given-name');
    await expectClean(p, watch!, 'the request form');
    await screenshot(p, 'dealer-identity-request-form-390', { fullPage: true });
    await p.getByLabel('First name').fill('Vera');
    await p.getByLabel('Last name').fill('Bezoeker');
    await p.getByLabel('Message (optional)').fill('I run the workshop in Zwolle and need the orders.');
    await p.getByRole('button', { name: 'Send request' }).click();
    await p.getByRole('heading', { level: 1, name: 'Request sent' }).waitFor();
    await expect.poll(() => p.evaluate(() => document.activeElement?.textContent)).toBe('Request sent');
    await expectClean(p, watch!, 'the confirmation');

    // the same answer for an address nobody serves
    await p.goto('/request-access');
    await p.getByLabel('E-mail address').fill('nobody@elsewhere-e2e.example');
    await p.getByLabel('First name').fill('No');
    await p.getByLabel('Last name').fill('Body');
    await p.getByRole('button', { name: 'Send request' }).click();
    await p.getByRole('heading', { level: 1, name: 'Request sent' }).waitFor();
  });

  it('the userManager sees the request with its count, approves it into a sub-organization, and the invitation goes out', async () => {
    const p = await managerPage();
    await p.goto(`/manage-organization/${middle.id}`);
    const section = p.getByTestId('dealer-identity');
    await section.getByRole('heading', { name: 'Domains and sign-in' }).waitFor();
    const tab = section.getByRole('tab', { name: /Access requests/ });
    await expect.poll(() => tab.textContent()).toContain('1');
    await tab.click();
    const request = section.getByTestId('access-request').filter({ hasText: visitor });
    await request.getByText('I run the workshop in Zwolle and need the orders.').waitFor();
    await expectClean(p, watch!, 'the access requests');
    await request.getByRole('button', { name: 'Approve the request of Vera Bezoeker' }).click();
    const dialog = await openDialog(p, 'Approve the request of Vera Bezoeker');
    await dialog.getByLabel('Organization').click();
    await p.getByRole('option', { name: 'Landbouw Oost › Werkplaats Zwolle', exact: true }).click();
    await expectClean(p, watch!, 'the approve dialog');
    const before = e2e.portal.smtp.messages.length;
    await dialog.getByRole('button', { name: 'Send invitation' }).click();
    await toast(p, `Invitation sent to ${visitor}`).waitFor();
    await section.getByText('No pending requests.').waitFor();
    const mail = await e2e.portal.smtp.waitFor(
      visitor,
      (m) => e2e.portal.smtp.messages.indexOf(m) >= before && m.links.some((l) => l.includes('/invitation')),
    );
    expect(mail.links.some((l) => l.includes('/invitation'))).toBe(true);
    const { rows } = await e2e.portal.services.db.query<{ organization_id: string; state: string }>(
      'SELECT organization_id, state FROM invitations WHERE lower(email) = lower($1)',
      [visitor],
    );
    expect(rows).toEqual([{ organization_id: child.id, state: 'PENDING' }]);
  });

  it('a declined request is gone from the list after a confirmation', async () => {
    const declined = `visitor.two@${REQUEST_DOMAIN}`;
    const asked = await (
      await e2e.portal.sessionFor(manager.userId)
    ).post('/api/access-requests', {
      email_address: declined,
      first_name: 'Dirk',
      last_name: 'Afgewezen',
      language_code: 'de',
    });
    expect(asked.status).toBe(202);
    const p = await managerPage({ viewport: { width: 390, height: 844 } });
    await p.goto(`/manage-organization/${middle.id}`);
    const section = p.getByTestId('dealer-identity');
    await section.getByRole('tab', { name: /Access requests/ }).click();
    await section.getByRole('button', { name: 'Decline the request of Dirk Afgewezen' }).click();
    const dialog = await openDialog(p, 'Decline request');
    await dialog.getByRole('button', { name: 'Decline' }).click();
    await toast(p, `Request of ${declined} declined`).waitFor();
    await e2e.portal.smtp.waitFor(declined);
    // the row is gone: the focus is on the section's heading
    await expect.poll(() => p.evaluate(() => document.activeElement?.textContent ?? '')).toContain('Domains and sign-in');
  });
});

describe('the section in Dutch and German at 390, 768 and 1280 px, and in Brazilian Portuguese', () => {
  beforeAll(async () => {
    const client = await e2e.portal.sessionFor(manager.userId);
    // a claim still to verify (its record shown) and a pending request with a message
    expect(
      (await client.post(`/api/organizations/${middle.id}/domains`, { domain: 'hoeve-de-eikenboom-landbouwmachines-e2e.example' })).status,
    ).toBe(201);
    const asked = await client.post('/api/access-requests', {
      email_address: `maximiliane.schwarzenberger@${REQUEST_DOMAIN}`,
      first_name: 'Maximiliane',
      last_name: 'Schwarzenberger',
      message: 'Ik werk in de werkplaats in Zwolle en wil de bestellingen kunnen zien.\nGroet, Max',
      language_code: 'nl',
    });
    expect(asked.status).toBe(202);
  });

  const TABS = ['domains', 'connections', 'requests'] as const;
  for (const [language, width] of grid(['nl', 'de'], [390, 768, 1280])) {
    it(`${language} at ${width} px: every tab axe clean, nothing wider than the screen`, async () => {
      const p = await managerPage({ viewport: { width, height: 900 }, language });
      await p.goto(`/manage-organization/${middle.id}`);
      const section = p.getByTestId('dealer-identity');
      await section.waitFor();
      for (const [i, tab] of TABS.entries()) {
        await section.getByRole('tab').nth(i).click();
        const item = { domains: 'domain', connections: 'sso-connection', requests: 'access-request' }[tab];
        await section.getByTestId(item).first().waitFor();
        await expectClean(p, watch!, `${tab} in ${language} at ${width} px`);
        await section.screenshot({ path: `${SCREENSHOTS}dealer-identity-${tab}-${language}-${width}.png` });
      }
    });
  }

  it('pt-BR at 390 px: the connection form and the approval', async () => {
    const p = await managerPage({ viewport: { width: 390, height: 844 }, language: 'pt-BR' });
    await p.goto(`/manage-organization/${middle.id}`);
    const section = p.getByTestId('dealer-identity');
    await section.getByRole('tab', { name: 'Conexões de login' }).click();
    await section.getByRole('button', { name: 'Editar Landbouw Oost Entra ID' }).click();
    const dialog = await openDialog(p, 'Editar Landbouw Oost Entra ID');
    await dialog.getByText('Deixe em branco para manter o segredo atual').waitFor();
    await expectClean(p, watch!, 'the connection form in pt-BR');
    await screenshot(p, 'dealer-identity-connection-form-pt-BR-390');
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    // switching it off says who signs in through it today and what changes for them
    await section.getByRole('button', { name: 'Desligar Landbouw Oost Entra ID' }).click();
    const off = await openDialog(p, 'Desligar Landbouw Oost Entra ID?');
    await off.getByTestId('connection-members').getByText(WORKER_EMAIL, { exact: false }).waitFor();
    await off.getByText(/voltará a entrar com uma senha|voltarão a entrar com uma senha/).waitFor();
    await expectClean(p, watch!, 'switching the connection off in pt-BR');
    await screenshot(p, 'dealer-identity-switch-off-pt-BR-390');
    await off.getByRole('button', { name: 'Cancelar' }).click();
    await section.getByRole('tab', { name: /Solicitações de acesso/ }).click();
    await section.getByRole('button', { name: 'Aprovar a solicitação de Maximiliane Schwarzenberger' }).click();
    await openDialog(p, 'Aprovar a solicitação de Maximiliane Schwarzenberger');
    await expectClean(p, watch!, 'the approval in pt-BR');
    await screenshot(p, 'dealer-identity-approve-pt-BR-390');
  });
});
