import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createUser } from '@partner-portal/server/test-kit';
import { newPage } from '../support/browser.js';
import { checkScreen, mailLink, open, openContext, signedIn, usePortalAndBrowser } from '../support/portal.js';

/**
 * Which language the interface speaks (docs/decisions/012-user-languages.md): a choice in the
 * signed-in header or the profile (six languages) is saved and sticks across a reload and a new
 * sign-in; a first visit follows the browser's language; a link's language wins over the browser's.
 */
const SHOTS = process.env.E2E_SHOT_DIR ?? '/tmp/shots-lang/';

const e2e = usePortalAndBrowser();

const lang = (page: Page) => page.evaluate(() => document.documentElement.lang);
const savedLanguage = async (userId: string) =>
  (await e2e.portal.services.db.query<{ language_code: string }>('SELECT language_code FROM users WHERE id = $1', [userId])).rows[0]!
    .language_code;

/** A context as a e2e.browser set to a language sends it (navigator.languages and Accept-Language), nothing picked before. */
async function browserIn(locale: string, width = 1280) {
  return e2e.browser.newContext({ baseURL: e2e.portal.url, locale, viewport: { width, height: 900 }, reducedMotion: 'reduce' });
}

const CASES = [
  { width: 390, name: 'Português (Brasil)', code: 'pt-BR', welcome: 'Bem-vindo, Terry', profile: 'Perfil', preferred: 'Idioma preferido' },
  { width: 768, name: 'Nederlands', code: 'nl', welcome: 'Welkom, Terry', profile: 'Profiel', preferred: 'Voorkeurstaal' },
  { width: 1280, name: 'Deutsch', code: 'de', welcome: 'Willkommen, Terry', profile: 'Profil', preferred: 'Bevorzugte Sprache' },
] as const;

describe.each(CASES)('the header picker ($code at $width px)', (c) => {
  it('offers six languages, saves the choice, and the choice sticks across a reload and a new sign-in', async () => {
    const user = await createUser(e2e.portal);
    const context = await signedIn(e2e.browser, e2e.portal, user.id, { viewport: { width: c.width, height: 900 } });
    const { page, watch } = await open(context, '/');
    await page.getByRole('heading', { name: 'Welcome, Terry' }).waitFor();
    const picker = page.getByLabel('Language', { exact: true });
    expect(await picker.locator('option').count()).toBe(6);
    await picker.selectOption({ label: c.name });
    await page.getByRole('heading', { name: c.welcome }).waitFor();
    expect(await lang(page)).toBe(c.code);
    await expect.poll(() => savedLanguage(user.id)).toBe(c.code);
    // the picker and the whole user menu fit in the header
    const menu = await page
      .getByRole('button', { name: /^(User menu of|Menu do usuário de|Gebruikersmenu van|Benutzermenü von)/ })
      .boundingBox();
    expect(menu!.x + menu!.width).toBeLessThanOrEqual(c.width);
    await checkScreen(page, watch, `language-choice-home-${c.code}`);
    await page.screenshot({ path: `${SHOTS}header-${c.width}-${c.code}.png` });

    // a reload keeps it
    await page.reload();
    await page.getByRole('heading', { name: c.welcome }).waitFor();
    expect(await lang(page)).toBe(c.code);

    // the profile offers the six, the saved one chosen
    await page.goto('/profile');
    await page.getByRole('heading', { name: c.profile }).waitFor();
    const preferred = page.getByLabel(c.preferred);
    expect(await preferred.locator('option').count()).toBe(6);
    expect(await preferred.inputValue()).toBe(c.code);
    await checkScreen(page, watch, `language-choice-profile-${c.code}`);
    await page.screenshot({ path: `${SHOTS}profile-${c.width}-${c.code}.png`, fullPage: true });
    await context.close();

    // another device, another e2e.browser language: the sign-in brings the saved language
    const other = await browserIn('en-US', c.width);
    const second = await newPage(other);
    await second.page.goto('/login');
    await second.page.getByLabel('E-mail address').fill(user.email);
    await second.page.getByRole('button', { name: 'Next' }).click();
    await second.page.locator('input[name="password"]').fill(user.password);
    await second.page.getByRole('button', { name: 'Log in' }).click();
    await second.page.getByRole('heading', { name: c.welcome }).waitFor();
    expect(await lang(second.page)).toBe(c.code);
    await other.close();
  });
});

describe('the profile offers pt-BR', () => {
  it('saves Português (Brasil) from the profile and the header shows it', async () => {
    const user = await createUser(e2e.portal, { language: 'nl' });
    const context = await signedIn(e2e.browser, e2e.portal, user.id, { viewport: { width: 390, height: 900 } });
    const { page } = await open(context, '/profile');
    await page.getByLabel('Voorkeurstaal').selectOption({ label: 'Português (Brasil)' });
    await page.getByRole('heading', { name: 'Perfil' }).waitFor();
    await page.getByRole('button', { name: 'Salvar' }).click();
    await page.getByText('Perfil atualizado').waitFor();
    expect(await savedLanguage(user.id)).toBe('pt-BR');
    expect(await page.getByLabel('Idioma', { exact: true }).inputValue()).toBe('pt-BR');
    await context.close();
  });
});

describe('the e2e.browser language on a first visit', () => {
  it.each([
    { locale: 'nl-NL', code: 'nl', label: 'E-mailadres' },
    { locale: 'de-DE', code: 'de', label: 'E-Mail-Adresse' },
    { locale: 'pt-BR', code: 'pt-BR', label: 'Endereço de e-mail' },
  ])('a $locale e2e.browser sees the login page in $code', async ({ locale, code, label }) => {
    const context = await browserIn(locale, 390);
    const { page, watch } = await newPage(context);
    await page.goto('/login');
    await page.getByLabel(label).waitFor();
    expect(await lang(page)).toBe(code);
    expect(await page.evaluate(() => localStorage.getItem('pp.language'))).toBeNull();
    await checkScreen(page, watch, `language-choice-first-visit-${code}`);
    await context.close();
  });

  it('a language picked earlier on the device wins over the e2e.browser’s', async () => {
    const context = await browserIn('nl-NL');
    await context.addInitScript(() => localStorage.setItem('pp.language', 'fr'));
    const { page } = await newPage(context);
    await page.goto('/login');
    await page.getByLabel('Adresse e-mail').waitFor();
    expect(await lang(page)).toBe('fr');
    await context.close();
  });
});

describe('a link’s language', () => {
  it.each([
    { language: 'nl', heading: 'Kies een nieuw wachtwoord' },
    { language: 'pt-BR', heading: 'Escolha uma nova senha' },
  ])('a reset link of a $language user opened in a German e2e.browser shows $language', async ({ language, heading }) => {
    const user = await createUser(e2e.portal, { language });
    expect((await e2e.portal.client().post('/api/identity/forgot-password', { email_address: user.email })).status).toBe(204);
    const link = await mailLink(e2e.portal, user.email, '/reset-password');
    expect(link.searchParams.get('lang')).toBe(language);
    const context = await browserIn('de-DE', 390);
    const { page, watch } = await newPage(context);
    await page.goto(`${link.pathname}${link.search}`);
    await page.getByRole('heading', { name: heading }).waitFor();
    expect(await lang(page)).toBe(language);
    await checkScreen(page, watch, `language-choice-reset-${language}`);
    await page.screenshot({ path: `${SHOTS}reset-390-${language}.png` });
    await context.close();
  });
});

describe('sign-out', () => {
  it('keeps the language shown', async () => {
    const user = await createUser(e2e.portal, { language: 'nl' });
    const context = await openContext(e2e.browser, e2e.portal);
    const { page } = await open(context, '/login');
    await page.getByLabel('E-mail address').fill(user.email);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.locator('input[name="password"]').fill(user.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { name: 'Welkom, Terry' }).waitFor();
    await page.getByRole('button', { name: /Gebruikersmenu van/ }).click();
    await page.getByRole('menuitem', { name: 'Uitloggen' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByLabel('E-mailadres').waitFor();
    expect(await lang(page)).toBe('nl');
    await context.close();
  });
});
