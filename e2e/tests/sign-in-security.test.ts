import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { createUser } from '@partner-portal/server/test-kit';
import { addVirtualAuthenticator } from '../support/browser.js';
import { checkScreen, open, openContext, signedIn, usePortalAndBrowser } from '../support/portal.js';

/**
 * "Sign-in and security" of the profile and the second step of the login page, in Chromium:
 * an authenticator app set up from the QR code's key (codes computed by otpauth), the recovery
 * codes shown once, the sign-in with a code; a passkey added with the DevTools virtual
 * authenticator, then offered at the login page's e-mail step (conditional UI) and removed.
 * axe finds no serious violation on each screen.
 */
const e2e = usePortalAndBrowser({}, { publicHost: 'localhost' });

const code = (secret: string, stepsAhead = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({
    timestamp: Date.now() + stepsAhead * 30_000,
  });

describe('authenticator app', () => {
  it('is set up from the profile, and the login page then asks for a code', async () => {
    const user = await createUser(e2e.portal, { firstName: 'Tessa' });
    const context = await signedIn(e2e.browser, e2e.portal, user.id);
    const { page, watch } = await open(context, '/profile');
    await page.getByRole('heading', { name: 'Sign-in and security' }).waitFor();
    await checkScreen(page, watch, 'security');

    await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
    await page.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
    const key = (await page.getByLabel('Key to type by hand').innerText()).replace(/\s+/g, '');
    expect(key).toMatch(/^[A-Z2-7]{32}$/);
    await checkScreen(page, watch, 'security-totp-setup');
    await page.getByLabel('Code from the app').fill(code(key));
    await page.getByLabel('Code from the app').press('Enter');
    await page.getByTestId('recovery-codes').waitFor();
    expect(await page.getByTestId('recovery-codes').locator('li').count()).toBe(10);
    await checkScreen(page, watch, 'security-recovery-codes');
    await page.getByRole('button', { name: 'I have kept them' }).click();
    await page.getByText(/^Set up on /).waitFor();
    await context.close();

    // the login page: e-mail, password, then the second step, by keyboard
    const fresh = await openContext(e2e.browser, e2e.portal);
    const login = await open(fresh, '/login');
    await login.page.getByLabel('E-mail address').fill(user.email);
    await login.page.keyboard.press('Enter');
    await login.page.locator('input[name="password"]').fill(user.password);
    await login.page.keyboard.press('Enter');
    await login.page.getByText('Second step').waitFor();
    await checkScreen(login.page, login.watch, 'login-second-step');
    // the code field has the focus
    await login.page.keyboard.type('000000');
    await login.page.keyboard.press('Enter');
    await login.page.getByText('The code is not valid').waitFor();
    await login.page.keyboard.type(code(key, 1));
    await login.page.keyboard.press('Enter');
    await login.page.waitForURL((url) => url.pathname === '/');
    await login.page.getByRole('heading', { name: /Tessa/ }).waitFor();
    await fresh.close();
  });
});

describe('passkeys', () => {
  it('are added in the profile, offered at the e-mail step of the login page, and removed', async () => {
    const user = await createUser(e2e.portal, { firstName: 'Pia' });
    const context = await signedIn(e2e.browser, e2e.portal, user.id);
    const { page, watch } = await open(context, '/profile');
    await addVirtualAuthenticator(page);
    await page.getByLabel('Name of the passkey').fill('Work laptop');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.getByText('The passkey was added').waitFor();
    await page.getByTestId('recovery-codes').waitFor();
    await page.getByRole('button', { name: 'I have kept them' }).click();
    await page.getByText('Work laptop').waitFor();
    await page.getByText('Not used yet').waitFor();
    await checkScreen(page, watch, 'security-passkey');

    // signed out: the e-mail step offers the passkey (conditional UI), which signs in on its own.
    // The profile is left first: a signed-in page reloads itself to the login page (with its way
    // back) within a second of the session's cookies going (apps/web/src/app/guards.tsx), and that
    // reload could otherwise overtake the visit to /login below.
    await page.goto('about:blank');
    await context.clearCookies();
    await page.goto('/login');
    // the virtual authenticator answers the e-mail field's passkey request at once, so the sign-in
    // may be done (and the field gone) before a click on the field lands
    const home = page.waitForURL((url) => url.pathname === '/', { timeout: 15_000 });
    await Promise.race([
      home,
      page
        .getByLabel('E-mail address')
        .click({ timeout: 15_000 })
        .catch(() => undefined),
    ]);
    await home;
    await page.getByRole('heading', { name: /Pia/ }).waitFor();

    await page.goto('/profile');
    await page.getByText(/^Last used /).waitFor();
    await page.getByRole('button', { name: 'Remove passkey Work laptop' }).click();
    await page.getByText('The passkey was removed').waitFor();
    await page.getByText('No passkeys yet').waitFor();
    await context.close();
  });
});

describe('renaming a passkey', () => {
  it('renames a passkey in the profile by keyboard; the list shows when it was added and last used', async () => {
    const user = await createUser(e2e.portal, { firstName: 'Rik' });
    const context = await signedIn(e2e.browser, e2e.portal, user.id);
    const { page, watch } = await open(context, '/profile');
    await addVirtualAuthenticator(page);
    await page.getByLabel('Name of the passkey').fill('Passkey');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.getByRole('button', { name: 'I have kept them' }).click();
    await page.getByText(/^Not used yet · Added /).waitFor();

    await page.getByRole('button', { name: 'Rename passkey Passkey' }).click();
    const field = page.getByLabel('New name');
    await expect.poll(() => field.evaluate((el) => el === document.activeElement)).toBe(true);
    await field.fill('   ');
    await field.press('Enter');
    await page.getByText('Fill all required fields').waitFor();
    await checkScreen(page, watch, 'security-passkey-rename');
    // Escape leaves the name as it was, and the focus on its rename button
    await field.press('Escape');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Rename passkey Passkey');
    await page.keyboard.press('Enter');
    await page.getByLabel('New name').fill('Kitchen tablet');
    await page.getByLabel('New name').press('Enter');
    await page.getByText('The passkey was renamed').waitFor();
    await page.getByText('Kitchen tablet', { exact: true }).waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Rename passkey Kitchen tablet');
    const { rows } = await e2e.portal.services.db.query<{ name: string }>('SELECT name FROM passkeys WHERE user_id = $1', [user.id]);
    expect(rows).toEqual([{ name: 'Kitchen tablet' }]);
    await context.close();
  });
});
