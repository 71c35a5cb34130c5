import { beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { signIn, type HttpClient } from '@partner-portal/server/test-kit';
import { newPage, type PageWatch } from '../support/browser.js';
import { checkScreen, invitationLink, screenshot, usePortalAndBrowser } from '../support/portal.js';
import { webText } from '../support/texts.js';
import { holdScripts, hydrated } from '../support/prerendered.js';

/**
 * The invitation pages arrive with their registration form as HTML
 * (docs/decisions/021-pre-rendered-public-pages.md): typeable before any script runs, in the
 * visitor's language; what is typed before the scripts is kept, and Enter pressed before them
 * registers once the application and the invitation are there. The scripts are held back through
 * route interception.
 */
const e2e = usePortalAndBrowser();
let adminApi: HttpClient;
let organizationId: string;
let invited = 0;

const PASSWORD = 'Sterk-Wachtw00rd!';

/** React's reports of a page that did not match its first render (production builds give only the error's number). */
const HYDRATION_PROBLEM = /hydrat|Minified React error #(418|419|421|422|423|425)\b/i;
const hydrationProblems = (watch: PageWatch) => watch.problems.filter((p) => HYDRATION_PROBLEM.test(p));

beforeAll(async () => {
  adminApi = await e2e.portal.sessionFor(e2e.portal.adminUserId);
  const created = await adminApi.post('/api/organizations', {
    parent_organization_id: e2e.portal.rootOrganizationId,
    name: 'Loonbedrijf Prerender',
    client_ids: ['loyalty-app'],
    can_create_sub_organization: false,
  });
  expect(created.status).toBeLessThan(300);
  organizationId = created.body.id;
});

/** A new invitation in `language`: its address and its page's path and query (without `lang`). */
async function invite(language: string, external = false): Promise<{ email: string; path: string }> {
  invited += 1;
  const email = `prerender.${invited}.${language.toLowerCase()}@example.com`;
  const res = await adminApi.post(`/api/organizations/${organizationId}/invitations`, {
    email_address: email,
    language_code: language,
    ...(external ? { is_external_identity_provider: true } : {}),
  });
  expect(res.status).toBe(201);
  const link = await invitationLink(e2e.portal, email);
  return { email, path: `${link.pathname}?code=${encodeURIComponent(link.searchParams.get('code') ?? '')}` };
}

async function contextIn(locale: string, width: number): Promise<BrowserContext> {
  return e2e.browser.newContext({ baseURL: e2e.portal.url, locale, viewport: { width, height: 900 }, reducedMotion: 'reduce' });
}

const field = (page: Page, name: string) => page.locator(`input[name="${name}"]`);

describe('the pre-rendered registration form', () => {
  it.each([
    { how: 'the link names nl', locale: 'en-GB', language: 'nl', lang: 'nl', page: 'nl', width: 390 },
    { how: 'Accept-Language picks fr (an English invitation)', locale: 'fr', language: 'en', lang: null, page: 'fr', width: 768 },
    { how: 'Accept-Language picks de', locale: 'de', language: 'de', lang: null, page: 'de', width: 1280 },
  ])('$how: typed and Enter pressed before the scripts, it registers once they are there', async (c) => {
    const { email, path } = await invite(c.language);
    const context = await contextIn(c.locale, c.width);
    const { page, watch } = await newPage(context);
    const release = await holdScripts(page);
    await page.goto(c.lang ? `${path}&lang=${c.lang}` : path, { waitUntil: 'commit' });
    // the form is in the HTML, in the page's language, and typeable before any script
    const firstName = page.getByRole('textbox', { name: webText(c.page, 'inv_first_name'), exact: true });
    await firstName.waitFor();
    expect(await page.evaluate(() => document.getElementById('root')?.dataset.prerendered)).toBe(c.page);
    expect(await firstName.isEditable()).toBe(true);
    await page.getByRole('button', { name: webText(c.page, 'inv_register') }).waitFor();
    await firstName.pressSequentially('Geertje');
    await field(page, 'last_name').pressSequentially('van der Veen');
    await field(page, 'password').pressSequentially(PASSWORD);
    await field(page, 'password_confirmation').pressSequentially(PASSWORD);
    await field(page, 'accept_agreement').check();
    await field(page, 'password_confirmation').press('Enter');
    // nothing left the page: the submission waits for the application
    expect(new URL(page.url()).pathname).toBe(new URL(path, e2e.portal.url).pathname);
    expect(new URL(page.url()).search).not.toContain('first_name');
    release();
    await page.waitForURL((url) => url.pathname === '/login', { timeout: 30_000 });
    // the account is there, with the names typed before the scripts, and the invitation's language
    const client = await signIn(e2e.portal.client(), { email, password: PASSWORD });
    const me = await client.get('/api/identity/user-info');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ firstName: 'Geertje', lastName: 'van der Veen', languageCode: c.language });
    expect(hydrationProblems(watch)).toEqual([]);
    await context.close();
  });

  it('keeps what is typed before the scripts when nothing is submitted, and fills in the invitation around it', async () => {
    const { email, path } = await invite('nl');
    const context = await contextIn('nl', 768);
    const { page, watch } = await newPage(context);
    const release = await holdScripts(page);
    await page.goto(path, { waitUntil: 'commit' });
    await field(page, 'first_name').pressSequentially('Klaas');
    await field(page, 'accept_agreement').check();
    release();
    await hydrated(page);
    // the invitation's address and organization come in; the typed name and the tick stay
    await expect.poll(() => page.getByLabel(webText('nl', 'inv_email')).inputValue()).toBe(email);
    await page.getByText('Loonbedrijf Prerender').waitFor();
    expect(await field(page, 'first_name').inputValue()).toBe('Klaas');
    expect(await field(page, 'accept_agreement').isChecked()).toBe(true);
    await field(page, 'last_name').fill('Dijkstra');
    await field(page, 'password').fill(PASSWORD);
    await field(page, 'password_confirmation').fill(PASSWORD);
    await page.getByRole('button', { name: webText('nl', 'inv_register') }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    const me = await (await signIn(e2e.portal.client(), { email, password: PASSWORD })).get('/api/identity/user-info');
    expect(me.body).toMatchObject({ firstName: 'Klaas', lastName: 'Dijkstra' });
    expect(hydrationProblems(watch)).toEqual([]);
    await context.close();
  });

  it('an invitation no longer pending: Enter pressed before the scripts submits nothing, the page says so', async () => {
    const { path } = await invite('nl');
    const id = path.split('?')[0]!.split('/').pop();
    expect((await adminApi.put(`/api/invitations/${id}/revoke`)).status).toBe(204);
    const context = await contextIn('nl', 390);
    const { page, watch } = await newPage(context);
    let accepted = 0;
    page.on('request', (request) => void (request.method() === 'PUT' && request.url().endsWith('/accept') && (accepted += 1)));
    const release = await holdScripts(page);
    await page.goto(path, { waitUntil: 'commit' });
    await field(page, 'first_name').pressSequentially('Jan');
    await field(page, 'first_name').press('Enter');
    release();
    await page.getByText(webText('nl', 'inv_revoked_text')).waitFor();
    expect(accepted).toBe(0);
    expect(hydrationProblems(watch)).toEqual([]);
    await context.close();
  });

  it('the external invitation page: its form and button are in the HTML; typed before the scripts, it registers', async () => {
    const { path } = await invite('pt-BR', true);
    expect(path).toMatch(/^\/invitation-external-identity\//);
    const context = await contextIn('pt-BR', 390);
    const { page, watch } = await newPage(context);
    const release = await holdScripts(page);
    await page.goto(path, { waitUntil: 'commit' });
    const firstName = page.getByRole('textbox', { name: webText('pt-BR', 'inv_first_name'), exact: true });
    await firstName.waitFor();
    expect(await firstName.isEditable()).toBe(true);
    await page.getByRole('button', { name: webText('pt-BR', 'inv_register_external') }).waitFor();
    expect(await field(page, 'password').count()).toBe(0);
    await firstName.pressSequentially('Eva');
    await field(page, 'last_name').pressSequentially('Extern');
    await field(page, 'accept_agreement').check();
    await field(page, 'last_name').press('Enter');
    let upstream: URL | null = null;
    await page.route('**/api/identity/challenge-external-login**', async (route) => {
      upstream = new URL(route.request().url());
      await route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>upstream</title><h1>upstream</h1>' });
    });
    release();
    await page.waitForURL((url) => url.pathname === '/api/identity/challenge-external-login', { timeout: 30_000 });
    expect(upstream!.searchParams.get('invitationLogin')).toBe(path.split('?')[0]!.split('/').pop());
    expect(hydrationProblems(watch)).toEqual([]);
    await context.close();
  });
});

describe('the pre-rendered invitation page on screens', () => {
  it.each((['nl', 'pt-BR'] as const).flatMap((language) => ([390, 768, 1280] as const).map((width) => ({ language, width }))))(
    '$language at $width px: before the scripts and hydrated, the same layout, nothing overflowing',
    async ({ language, width }) => {
      const { email, path } = await invite(language === 'pt-BR' ? 'pt-BR' : 'nl');
      const context = await contextIn(language, width);
      const { page, watch } = await newPage(context);
      const release = await holdScripts(page);
      await page.goto(path, { waitUntil: 'commit' });
      const firstName = field(page, 'first_name');
      await firstName.waitFor();
      await page.getByRole('button', { name: webText(language, 'inv_register') }).waitFor();
      await screenshot(page, `prerendered-invitation-${language}-before-scripts-${width}`, { fullPage: true });
      const before = await firstName.boundingBox();
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
      release();
      await hydrated(page);
      await expect.poll(() => page.getByLabel(webText(language, 'inv_email')).inputValue()).toBe(email);
      await checkScreen(page, watch, `prerendered-invitation-${language}-hydrated`);
      const after = await firstName.boundingBox();
      expect(after?.x).toBe(before?.x);
      expect(after?.width).toBe(before?.width);
      expect(hydrationProblems(watch)).toEqual([]);
      await context.close();
    },
  );
});
