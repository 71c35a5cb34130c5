import { describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { createUser } from '@partner-portal/server/test-kit';
import { newPage, type PageWatch } from '../support/browser.js';
import { checkScreen, screenshot, usePortalAndBrowser } from '../support/portal.js';
import { webText } from '../support/texts.js';
import { holdScripts, hydrated } from '../support/prerendered.js';
import { grid } from '../support/grid.js';

/**
 * The public pages arrive as HTML (docs/decisions/021-pre-rendered-public-pages.md): pre-rendered
 * per interface language, sent in the visitor's (the link's, the cookie's, Accept-Language's,
 * en-GB), usable before any script runs, and hydrated by the application without a mismatch. What
 * is typed before the scripts arrive is kept; a submission made before them goes on once they are
 * there. The scripts are held back or refused through route interception.
 */

/** a sales contact of the operator's own: the pages, rendered at build time with the default, must name this one from their first byte */
const SALES = 'verkoop@dealer-e2e.example';
const e2e = usePortalAndBrowser({ SALES_CONTACT_EMAIL: SALES });

const LANGUAGES = ['en-GB', 'nl', 'de', 'fr', 'es', 'pt-BR'] as const;
type Language = (typeof LANGUAGES)[number];

/** The pre-rendered pages, an address of each, and its title's key. */
const PAGES = [
  { path: '/login', title: 'title_login' },
  { path: '/forgot-password', title: 'title_forgot_password' },
  { path: '/reset-password?userId=5f0c7f36-1c1e-4a53-9d7e-3f8a2b9c0d11&code=abc', title: 'title_reset_password' },
  { path: '/invitation/5f0c7f36-1c1e-4a53-9d7e-3f8a2b9c0d11?code=abc', title: 'title_invitation' },
  { path: '/invitation-external-identity/5f0c7f36-1c1e-4a53-9d7e-3f8a2b9c0d11?code=abc', title: 'title_invitation' },
] as const;

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

async function getPage(path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${e2e.portal.url}${path}`, { headers: { accept: 'text/html', ...headers } });
  return { res, html: await res.text() };
}

/** The language a page was sent in (null: the application's index.html, rendered in the browser). */
const prerenderedIn = (html: string) => /<div id="root" data-prerendered="([^"]+)">/.exec(html)?.[1] ?? null;

/** React's reports of a page that did not match its first render (production builds give only the error's number). */
const HYDRATION_PROBLEM = /hydrat|Minified React error #(418|419|421|422|423|425)\b/i;
const hydrationProblems = (watch: PageWatch) => watch.problems.filter((p) => HYDRATION_PROBLEM.test(p));

async function contextIn(language: Language, width = 1280): Promise<BrowserContext> {
  return e2e.browser.newContext({ baseURL: e2e.portal.url, locale: language, viewport: { width, height: 900 }, reducedMotion: 'reduce' });
}

describe('the server sends the pre-rendered pages', () => {
  it.each(PAGES)('$path in each language, with its lang, title and description, never cached', async ({ path, title }) => {
    for (const language of LANGUAGES) {
      const { res, html } = await getPage(path, { 'accept-language': `${language},en;q=0.5` });
      expect(res.status).toBe(200);
      expect(prerenderedIn(html), `${path} in ${language}`).toBe(language);
      expect(html).toContain(`<html lang="${language}"`);
      expect(html).toContain(`<title>${escapeHtml(`${webText(language, title)} · ${webText(language, 'product_name')}`)}</title>`);
      expect(html).toContain(`<meta name="description" content="${escapeHtml(webText(language, 'login_subtitle'))}"`);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(res.headers.get('vary')?.toLowerCase()).toContain('cookie, accept-language');
      // the inline hand-over script is allowed by its hash, and no other inline script is
      const script = /<script>([^<]+)<\/script>/.exec(html)?.[1] ?? '';
      const hash = Buffer.from(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(script))).toString('base64');
      expect(res.headers.get('content-security-policy')).toContain(`script-src 'self' 'sha256-${hash}'`);
      expect(html.match(/<script>/g)).toHaveLength(1);
    }
  });

  it('picks the language of the link, then the cookie, then Accept-Language, then en-GB', async () => {
    const lang = async (path: string, headers: Record<string, string>) => prerenderedIn((await getPage(path, headers)).html);
    expect(await lang('/login', { 'accept-language': 'ja, fr;q=0.8, de;q=0.9' })).toBe('de');
    expect(await lang('/login', { 'accept-language': 'nl', cookie: 'pp_language=pt-BR' })).toBe('pt-BR');
    expect(await lang('/login', { 'accept-language': 'nl', cookie: 'pp_language=xx' })).toBe('nl');
    expect(await lang('/invitation/abc?code=1&lang=es', { 'accept-language': 'nl', cookie: 'pp_language=de' })).toBe('es');
    expect(await lang('/login', { 'accept-language': 'ja' })).toBe('en-GB');
    expect(await lang('/login', {})).toBe('en-GB');
    expect(await lang('/LOGIN/', { 'accept-language': 'fr' })).toBe('fr');
  });

  it('sends the application itself where the first render would differ from the pre-rendered page', async () => {
    for (const path of [
      '/login?ReturnUrl=%2Fconnect%2Fauth',
      '/login?loginError=x',
      '/reset-password',
      '/reset-password?userId=x',
      '/',
      '/profile',
    ]) {
      const { res, html } = await getPage(path, { 'accept-language': 'nl' });
      expect(res.status, path).toBe(200);
      expect(prerenderedIn(html), path).toBeNull();
      expect(html, path).toContain('<div id="root"></div>');
    }
  });
});

describe('a pre-rendered page in the browser', () => {
  it.each(LANGUAGES)('/login in %s is a form before any script runs', async (language) => {
    const context = await contextIn(language);
    const { page } = await newPage(context);
    await page.route('**/assets/**/*.js', (route) => route.abort());
    await page.goto('/login', { waitUntil: 'commit' });
    const email = page.getByLabel(webText(language, 'email_address'));
    await email.waitFor();
    expect(await email.isEditable()).toBe(true);
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('email');
    await page.getByRole('button', { name: webText(language, 'next') }).waitFor();
    expect(await page.title()).toBe(`${webText(language, 'title_login')} · ${webText(language, 'product_name')}`);
    await context.close();
  });

  it.each(PAGES.flatMap((p) => (p.path === '/login' ? LANGUAGES : (['nl', 'pt-BR'] as const)).map((language) => ({ ...p, language }))))(
    '$path in $language hydrates without a mismatch, keeping the pre-rendered elements',
    async ({ path, language }) => {
      const context = await contextIn(language);
      const { page, watch } = await newPage(context);
      const release = await holdScripts(page);
      await page.goto(path, { waitUntil: 'commit' });
      await page.locator('#main').waitFor();
      await page.evaluate(() => ((window as { __prerenderedMain?: Element | null }).__prerenderedMain = document.querySelector('#main')));
      release();
      await hydrated(page);
      await page.waitForLoadState('networkidle');
      expect(hydrationProblems(watch)).toEqual([]);
      // React kept the page's elements (a mismatch makes it render them again)
      expect(
        await page.evaluate(() => (window as { __prerenderedMain?: Element | null }).__prerenderedMain === document.querySelector('#main')),
      ).toBe(true);
      expect(await page.evaluate(() => document.documentElement.lang)).toBe(language);
      await context.close();
    },
  );

  it('names the configured sales contact from the first byte, before the scripts and after hydration (pt-BR, 390 px)', async () => {
    const { html } = await getPage('/login', { 'accept-language': 'pt-BR' });
    expect(html).toContain(`mailto:${SALES}`);
    expect(html).not.toContain('sales@example.com');
    const context = await contextIn('pt-BR', 390);
    const { page, watch } = await newPage(context);
    const release = await holdScripts(page);
    await page.goto('/login', { waitUntil: 'commit' });
    const contact = page.getByRole('link', { name: SALES });
    await contact.waitFor();
    expect(await contact.getAttribute('href')).toBe(`mailto:${SALES}`);
    release();
    await hydrated(page);
    await page.waitForLoadState('networkidle');
    expect(hydrationProblems(watch)).toEqual([]);
    expect(await page.getByRole('link', { name: SALES }).getAttribute('href')).toBe(`mailto:${SALES}`);
    expect(await page.content()).not.toContain('sales@example.com');
    // the brand line above the card speaks the page's language too
    expect(await page.getByText('Partner Portal', { exact: true }).count()).toBe(0);
    expect(await page.getByText(webText('pt-BR', 'product_name'), { exact: true }).count()).toBeGreaterThanOrEqual(2);
    await screenshot(page, 'prerendered-login-sales-contact-pt-BR-390');
    await context.close();
  });

  it('keeps an e-mail address typed before the scripts, and Enter pressed before them goes on to the password step', async () => {
    const user = await createUser(e2e.portal, { language: 'nl' });
    const context = await contextIn('nl', 390);
    const { page, watch } = await newPage(context);
    const release = await holdScripts(page);
    await page.goto('/login', { waitUntil: 'commit' });
    const email = page.getByLabel('E-mailadres');
    await email.pressSequentially(user.email);
    await email.press('Enter');
    // nothing left the page: the submission waits for the application
    expect(new URL(page.url()).pathname).toBe('/login');
    release();
    const password = page.locator('input[name="password"]');
    await password.waitFor();
    await password.fill(user.password);
    await page.getByRole('button', { name: 'Inloggen' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    expect(hydrationProblems(watch)).toEqual([]);
    await context.close();
  });

  it('keeps an e-mail address typed before the scripts, and the button pressed after hydration goes on', async () => {
    const user = await createUser(e2e.portal, { language: 'pt-BR' });
    const context = await contextIn('pt-BR', 768);
    const { page, watch } = await newPage(context);
    const release = await holdScripts(page);
    await page.goto('/login', { waitUntil: 'commit' });
    const email = page.getByLabel('Endereço de e-mail');
    await email.pressSequentially(user.email);
    release();
    await hydrated(page);
    expect(await email.inputValue()).toBe(user.email);
    await page.getByRole('button', { name: 'Próximo' }).click();
    await page.locator('input[name="password"]').waitFor();
    expect(hydrationProblems(watch)).toEqual([]);
    await context.close();
  });

  it('keeps an address typed into the forgot-password form before the scripts, and sends it on Enter', async () => {
    const user = await createUser(e2e.portal, { language: 'de' });
    const context = await contextIn('de');
    const { page, watch } = await newPage(context);
    const release = await holdScripts(page);
    await page.goto('/forgot-password', { waitUntil: 'commit' });
    const email = page.getByLabel(webText('de', 'email_address'));
    await email.pressSequentially(user.email);
    await email.press('Enter');
    release();
    await page.waitForURL((url) => url.pathname === '/forgot-password-confirmation');
    await e2e.portal.smtp.waitFor(user.email, (m) => m.links.some((l) => l.includes('/reset-password')));
    expect(hydrationProblems(watch)).toEqual([]);
    await context.close();
  });

  it('hydrates in the language it was sent in, then follows the one this device picked before', async () => {
    const context = await contextIn('nl');
    await context.addInitScript(() => {
      if (!sessionStorage.getItem('seeded')) {
        localStorage.setItem('pp.language', 'de');
        sessionStorage.setItem('seeded', '1');
      }
    });
    const { page, watch } = await newPage(context);
    await page.goto('/login');
    await page.getByLabel(webText('de', 'email_address')).waitFor();
    expect(hydrationProblems(watch)).toEqual([]);
    // the device's choice now travels with the next request
    expect((await context.cookies()).find((c) => c.name === 'pp_language')?.value).toBe('de');
    await page.reload();
    expect(await page.evaluate(() => document.getElementById('root')?.dataset.prerendered)).toBe('de');
    await context.close();
  });

  it("an error shown before the page follows the device's language is shown in that language after it", async () => {
    // a device that picked Dutch before the language cookie existed: the page comes in English
    const context = await contextIn('en-GB', 390);
    await context.addInitScript(() => {
      if (!sessionStorage.getItem('seeded')) {
        localStorage.setItem('pp.language', 'nl');
        sessionStorage.setItem('seeded', '1');
      }
    });
    const { page, watch } = await newPage(context);
    const release = await holdScripts(page);
    await page.goto('/login', { waitUntil: 'commit' });
    const email = page.locator('input[name="email"]');
    await email.press('Enter');
    release();
    await page.getByLabel(webText('nl', 'email_address')).waitFor();
    await page.getByText(webText('nl', 'fill_all_required_fields')).waitFor();
    expect(await page.getByText(webText('en-GB', 'fill_all_required_fields')).count()).toBe(0);
    expect(hydrationProblems(watch)).toEqual([]);
    await context.close();
  });

  it.each(grid(['nl', 'pt-BR'] as const, [390, 768, 1280] as const))(
    '/login in %s at %i px, before the scripts and hydrated',
    async (language, width) => {
      const context = await contextIn(language, width);
      const { page, watch } = await newPage(context);
      const release = await holdScripts(page);
      await page.goto('/login', { waitUntil: 'commit' });
      await page.getByLabel(webText(language, 'email_address')).waitFor();
      await screenshot(page, `prerendered-login-${language}-before-scripts-${width}`);
      release();
      await hydrated(page);
      await checkScreen(page, watch, `prerendered-login-${language}-hydrated`);
      await context.close();
    },
  );
});
