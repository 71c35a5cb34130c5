import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createUser } from '@partner-portal/server/test-kit';
import { checkScreen, open, openContext, usePortalAndBrowser } from '../support/portal.js';

/**
 * Português (Brasil) from the login page, where the visitor picks it, through the sign-in, home,
 * the profile and the manage page to the sign-out, at 390 px: every page speaks Portuguese, and
 * the choice is saved as the user's language (docs/decisions/012-user-languages.md).
 */
const SHOTS = process.env.E2E_SHOT_DIR ?? '/tmp/shots-lang/';

const e2e = usePortalAndBrowser();

const lang = (page: Page) => page.evaluate(() => document.documentElement.lang);

async function openUserMenu(page: Page): Promise<void> {
  await page.getByRole('button', { name: /Menu do usuário de/ }).click();
}

describe('pt-BR walk at 390 px', () => {
  it('keeps Portuguese from the login page through sign-in, home, profile, manage page and sign-out', async () => {
    const user = await createUser(e2e.portal, { firstName: 'Ana' });
    // a user manager of the root organization: the menu leads to the manage page
    await e2e.portal.services.db.query(
      `UPDATE memberships SET rights = '{"partner_portal": {"user_access": true, "user_user_manager": true}}' WHERE user_id = $1`,
      [user.id],
    );
    const context = await openContext(e2e.browser, e2e.portal, { viewport: { width: 390, height: 844 } });
    const { page, watch } = await open(context, '/login');

    // the login page: picked there
    await page.getByLabel('Language').selectOption({ label: 'Português (Brasil)' });
    await page.getByLabel('Endereço de e-mail').waitFor();
    expect(await lang(page)).toBe('pt-BR');
    await checkScreen(page, watch, 'ptbr-walk-login');
    await page.screenshot({ path: `${SHOTS}walk-login-390-pt-BR.png`, fullPage: true });

    // the sign-in
    await page.getByLabel('Endereço de e-mail').fill(user.email);
    await page.getByRole('button', { name: 'Próximo' }).click();
    const password = page.locator('input[name="password"]');
    await password.waitFor();
    await password.fill(user.password);
    await page.getByRole('button', { name: 'Entrar' }).click();

    // home, in Portuguese; the choice is the user's language now
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('heading', { name: 'Bem-vindo, Ana' }).waitFor();
    expect(await lang(page)).toBe('pt-BR');
    await expect
      .poll(
        async () =>
          (await e2e.portal.services.db.query<{ language_code: string }>('SELECT language_code FROM users WHERE id = $1', [user.id]))
            .rows[0]?.language_code,
      )
      .toBe('pt-BR');
    expect(await page.getByLabel('Idioma', { exact: true }).inputValue()).toBe('pt-BR');
    await checkScreen(page, watch, 'ptbr-walk-home');
    await page.screenshot({ path: `${SHOTS}walk-home-390-pt-BR.png`, fullPage: true });

    // the profile offers the six languages, pt-BR chosen
    await openUserMenu(page);
    await page.getByRole('menuitem', { name: 'Perfil' }).click();
    await page.getByRole('heading', { name: 'Perfil' }).waitFor();
    const preferred = page.getByLabel('Idioma preferido');
    expect(await preferred.inputValue()).toBe('pt-BR');
    expect(await preferred.locator('option').count()).toBe(6);
    expect(await lang(page)).toBe('pt-BR');
    await checkScreen(page, watch, 'ptbr-walk-profile');
    await page.screenshot({ path: `${SHOTS}walk-profile-390-pt-BR.png`, fullPage: true });

    // the manage page
    await openUserMenu(page);
    await page.getByRole('menuitem', { name: 'Gerenciamento de usuários' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/manage-organization/'));
    await page.getByRole('button', { name: 'Convidar usuário' }).first().waitFor();
    expect(await lang(page)).toBe('pt-BR');
    await checkScreen(page, watch, 'ptbr-walk-manage');
    await page.screenshot({ path: `${SHOTS}walk-manage-390-pt-BR.png`, fullPage: true });

    // and out: the login page stays Portuguese
    await openUserMenu(page);
    await page.getByRole('menuitem', { name: 'Sair' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByLabel('Endereço de e-mail').waitFor();
    expect(await lang(page)).toBe('pt-BR');
    await checkScreen(page, watch, 'ptbr-walk-logged-out');
    await context.close();
  });
});
