import { describe, expect, it } from 'vitest';
import { createUser } from '@partner-portal/server/test-kit';
import { checkScreen, loginThroughUi, open, openContext, signedIn, usePortalAndBrowser, type ViewportName } from '../support/portal.js';

const e2e = usePortalAndBrowser();

const userRow = async (id: string) =>
  (
    await e2e.portal.services.db.query<{ first_name: string; last_name: string; language_code: string }>(
      'SELECT first_name, last_name, language_code FROM users WHERE id = $1',
      [id],
    )
  ).rows[0]!;

describe.each<ViewportName>(['wide', 'narrow'])('profile (%s)', (viewport) => {
  it('edits the names and switches the interface to Dutch at once, warning until saved, and back', async () => {
    const user = await createUser(e2e.portal, { firstName: 'Pieter' });
    const context = await signedIn(e2e.browser, e2e.portal, user.id, { viewport });
    const { page, watch } = await open(context, '/');
    await page.getByRole('button', { name: /User menu of/ }).click();
    await page.getByRole('menuitem', { name: 'Profile' }).click();
    await page.waitForURL((url) => url.pathname === '/profile');
    const email = page.getByLabel('E-mail address');
    await email.waitFor();
    expect(await email.inputValue()).toBe(user.email);
    expect(await email.isEditable()).toBe(false);
    await checkScreen(page, watch, 'profile');

    // a required name
    await page.getByLabel('First name').fill('   ');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('First name is required').waitFor();

    await page.getByLabel('First name').fill('  Piet ');
    await page.getByLabel('Last name').fill('de Boer');
    // switch the language: the interface follows at once and warns that it is not saved yet
    await page.getByLabel('Preferred language').selectOption({ label: 'Nederlands' });
    await page.getByRole('heading', { name: 'Profiel' }).waitFor();
    await page.getByText('Dit wijkt af van je opgeslagen taal (English)').waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('nl');
    await checkScreen(page, watch, 'profile-nl-warning');
    await page.getByRole('button', { name: 'Opslaan' }).click();
    await page.getByText('Profiel bijgewerkt').waitFor();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('heading', { name: 'Welkom, Piet' }).waitFor();
    expect(await userRow(user.id)).toEqual({ first_name: 'Piet', last_name: 'de Boer', language_code: 'nl' });
    await checkScreen(page, watch, 'home-after-profile-nl');

    // and back to English
    await page.getByRole('button', { name: /Gebruikersmenu van/ }).click();
    await page.getByRole('menuitem', { name: 'Profiel' }).click();
    await page.getByLabel('Voorkeurstaal').selectOption({ label: 'English' });
    await page.getByRole('heading', { name: 'Profile' }).waitFor();
    await page.getByText('This differs from your saved language (Nederlands)').waitFor();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Profile updated').waitFor();
    await page.waitForURL((url) => url.pathname === '/');
    expect((await userRow(user.id)).language_code).toBe('en');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en-GB');
    await context.close();
  });

  it('leaving the profile without saving puts the saved language back', async () => {
    const user = await createUser(e2e.portal);
    const context = await signedIn(e2e.browser, e2e.portal, user.id, { viewport });
    const { page } = await open(context, '/profile');
    await page.getByLabel('Preferred language').selectOption({ label: 'Deutsch' });
    await page.getByRole('heading', { name: 'Profil' }).waitFor();
    await page.getByRole('link', { name: 'Abbrechen' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByText('All relevant applications for partners and dealers').waitFor();
    await context.close();
  });
});

describe.each<ViewportName>(['wide', 'narrow'])('change password (%s)', (viewport) => {
  it('shows hints while focused, both errors together, then changes the password and disables the button', async () => {
    const user = await createUser(e2e.portal);
    const context = await signedIn(e2e.browser, e2e.portal, user.id, { viewport });
    const { page, watch } = await open(context, '/');
    await page.getByRole('button', { name: /User menu of/ }).click();
    await page.getByRole('menuitem', { name: 'Change password' }).click();
    await page.waitForURL((url) => url.pathname === '/change-password');
    await page.getByRole('heading', { name: 'Change password', level: 1 }).waitFor();
    await checkScreen(page, watch, 'change-password');

    const newPassword = page.locator('input[name="new_password"]');
    await newPassword.focus();
    await newPassword.fill('short');
    await page.getByText('at least 8 characters').waitFor();
    await page.getByText('an uppercase letter').waitFor();
    await checkScreen(page, watch, 'change-password-hints');

    // current missing and new ≠ confirm: both errors at once
    await newPassword.fill('Fresh-Meadow-42');
    await page.locator('input[name="confirm_password"]').fill('Fresh-Meadow-43');
    await page.getByRole('button', { name: 'Change password' }).click();
    const alert = page.getByRole('alert');
    await alert.getByText('Fill all required fields').waitFor();
    await alert.getByText('Passwords do not match').waitFor();
    await checkScreen(page, watch, 'change-password-errors');

    // a wrong current password
    await page.locator('input[name="current_password"]').fill('Not-The-Password-1');
    await page.locator('input[name="confirm_password"]').fill('Fresh-Meadow-42');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('The current password is incorrect').waitFor();

    await page.locator('input[name="current_password"]').fill(user.password);
    const submit = page.getByRole('button', { name: 'Change password' });
    await submit.click();
    await page.getByText('Password changed!').waitFor();
    await page.waitForURL((url) => url.pathname === '/');
    await context.close();

    // the new password works at the login page
    const fresh = await openContext(e2e.browser, e2e.portal, { viewport });
    const login = await open(fresh, '/login');
    await loginThroughUi(login.page, user.email, 'Fresh-Meadow-42');
    await login.page.waitForURL((url) => url.pathname === '/');
    await fresh.close();
  });
});
