import { describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, ADMIN_PASSWORD, createUser } from '@partner-portal/server/test-kit';
import { checkScreen, loginThroughUi, open, openContext, signedIn, usePortalAndBrowser, type ViewportName } from '../support/portal.js';

const e2e = usePortalAndBrowser();

describe.each<ViewportName>(['wide', 'narrow'])('two-step login (%s)', (viewport) => {
  it('logs in with e-mail then password, moving focus between the steps, and lands on home', async () => {
    const context = await openContext(e2e.browser, e2e.portal, { viewport });
    const { page, watch } = await open(context, '/login');
    await page.getByRole('heading', { level: 1, name: 'Partner Portal' }).waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('type'))).toBe('email');
    await page.getByRole('link', { name: 'Forgot your password?' }).waitFor();
    await page.getByRole('link', { name: 'sales@example.com' }).waitFor();
    await checkScreen(page, watch, 'login-email');

    // validation of the e-mail step
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Fill all required fields').waitFor();
    await page.getByLabel('E-mail address').fill('not-an-address');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Invalid email address').waitFor();

    await page.getByLabel('E-mail address').fill(ADMIN_EMAIL);
    await page.getByRole('button', { name: 'Next' }).click();
    const password = page.locator('input[name="password"]');
    await password.waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('password');
    await checkScreen(page, watch, 'login-password');

    // the address button goes back and clears the password; focus returns to the e-mail field
    await password.fill('something');
    await page.getByRole('button', { name: `Change e-mail address ${ADMIN_EMAIL}` }).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('email');
    await page.getByRole('button', { name: 'Next' }).click();
    await password.waitFor();
    expect(await password.inputValue()).toBe('');

    await password.fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).press('Enter');
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.getByText('All relevant applications for partners and dealers').waitFor();
    await page.getByRole('list', { name: 'Applications' }).waitFor();
    await checkScreen(page, watch, 'home');
    await context.close();
  });

  it('says Invalid login for a wrong password', async () => {
    const context = await openContext(e2e.browser, e2e.portal, { viewport });
    const { page, watch } = await open(context, '/login');
    await loginThroughUi(page, ADMIN_EMAIL, 'Wrong-Passw0rd!');
    await page.getByRole('alert').filter({ hasText: 'Invalid login' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    await checkScreen(page, watch, 'login-failed');
    await context.close();
  });
});

describe('guards', () => {
  it('sends a visitor to /login with the returnPath and back there after login', async () => {
    const context = await openContext(e2e.browser, e2e.portal);
    const { page, watch } = await open(context, '/profile?tab=1');
    await page.waitForURL((url) => url.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('returnPath')).toBe('/profile?tab=1');
    await loginThroughUi(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    await page.waitForURL((url) => url.pathname === '/profile' && url.search === '?tab=1');
    await page.getByRole('heading', { name: 'Profile' }).waitFor();
    expect(watch.problems).toEqual([]);
    await context.close();
  });

  it('a logged-in visitor of /login goes on to home', async () => {
    const context = await signedIn(e2e.browser, e2e.portal, e2e.portal.adminUserId);
    const { page } = await open(context, '/login');
    await page.waitForURL((url) => url.pathname === '/');
    await context.close();
  });

  it('reloads to the login page within seconds once the session has ended elsewhere', async () => {
    const user = await createUser(e2e.portal);
    const context = await signedIn(e2e.browser, e2e.portal, user.id);
    const { page } = await open(context, '/profile');
    await page.getByRole('heading', { name: 'Profile' }).waitFor();
    // end the session on the server (as a logout in another tab would)
    await e2e.portal.services.db.query('DELETE FROM sessions WHERE user_id = $1', [user.id]).catch(async () => {
      await context.clearCookies();
    });
    await context.clearCookies();
    await page.waitForURL((url) => url.pathname === '/login', { timeout: 10_000 });
    expect(new URL(page.url()).searchParams.get('returnPath')).toBe('/profile');
    await context.close();
  });

  it('shows /forbidden for management routes without the right, and the not-found page elsewhere', async () => {
    const user = await createUser(e2e.portal);
    const context = await signedIn(e2e.browser, e2e.portal, user.id);
    const { page, watch } = await open(context, `/manage-organization/${e2e.portal.rootOrganizationId}`);
    await page.waitForURL((url) => url.pathname === '/forbidden');
    await page.getByRole('heading', { name: 'No access' }).waitFor();
    await page.getByRole('link', { name: 'Back to homepage' }).waitFor();
    await checkScreen(page, watch, 'forbidden');
    // the header menu has no user management for this user
    await page.getByRole('button', { name: /User menu of/ }).click();
    await page.getByRole('menuitem', { name: 'Profile' }).waitFor();
    expect(await page.getByRole('menuitem', { name: 'User management' }).count()).toBe(0);
    await page.getByRole('menuitem', { name: 'Change password' }).waitFor();
    await page.keyboard.press('Escape');

    const other = await open(context, '/no/such/page');
    await other.page.getByRole('heading', { name: 'Page not found' }).waitFor();
    await checkScreen(other.page, other.watch, 'not-found');
    await other.page.getByRole('link', { name: 'Back to homepage' }).click();
    await other.page.waitForURL((url) => url.pathname === '/');
    await context.close();
  });

  it('sends external identity users from /change-password to /forbidden and hides the menu item', async () => {
    const user = await createUser(e2e.portal, { password: null, externalIdp: 'upstream', externalSubject: 'sub-123' });
    const context = await signedIn(e2e.browser, e2e.portal, user.id);
    const { page } = await open(context, '/change-password');
    await page.waitForURL((url) => url.pathname === '/forbidden');
    await page.getByRole('button', { name: /User menu of/ }).click();
    await page.getByRole('menuitem', { name: 'Profile' }).waitFor();
    expect(await page.getByRole('menuitem', { name: 'Change password' }).count()).toBe(0);
    await context.close();
  });

  it('rewrites #/ URLs to normal paths', async () => {
    const context = await openContext(e2e.browser, e2e.portal);
    const { page } = await open(context, '/#/forgot-password');
    await page.waitForURL((url) => url.pathname === '/forgot-password');
    await page.getByRole('heading', { name: 'Forgot your password?' }).waitFor();
    await context.close();
  });
});

describe('logout and languages', () => {
  it('applies the user language at login, and logout keeps it and lands on /login', async () => {
    const user = await createUser(e2e.portal, { language: 'nl', firstName: 'Anke' });
    const context = await openContext(e2e.browser, e2e.portal);
    const { page, watch } = await open(context, '/login');
    await loginThroughUi(page, user.email, user.password);
    await page.getByRole('heading', { name: 'Welkom, Anke' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('nl');
    await checkScreen(page, watch, 'home-nl');
    await page.getByRole('button', { name: /Gebruikersmenu van/ }).click();
    await page.getByRole('menuitem', { name: 'Uitloggen' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByRole('heading', { name: 'Partnerportaal' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('nl');
    // the session is gone
    const res = await page.evaluate(() => fetch('/api/identity/user-info', { headers: { 'X-CSRF': '1' } }).then((r) => r.status));
    expect(res).toBe(401);
    await context.close();
  });

  it('shows the login video unless reduced motion is asked for', async () => {
    const moving = await openContext(e2e.browser, e2e.portal, { reducedMotion: false });
    const { page } = await open(moving, '/login');
    const video = page.locator('video');
    await video.waitFor({ state: 'attached' });
    expect(await video.evaluate((v: HTMLVideoElement) => ({ muted: v.muted, loop: v.loop, autoplay: v.autoplay }))).toEqual({
      muted: true,
      loop: true,
      autoplay: true,
    });
    await moving.close();
    const still = await openContext(e2e.browser, e2e.portal);
    const second = await open(still, '/login');
    await second.page.getByRole('heading', { name: 'Partner Portal' }).waitFor();
    expect(await second.page.locator('video').count()).toBe(0);
    await still.close();
  });

  it('links the privacy statement and the licence agreement in new tabs from the footer', async () => {
    const context = await signedIn(e2e.browser, e2e.portal, e2e.portal.adminUserId);
    const { page } = await open(context, '/');
    const privacy = page.getByRole('link', { name: 'Privacy statement' });
    await privacy.waitFor();
    expect(await privacy.getAttribute('target')).toBe('_blank');
    const eula = page.getByRole('link', { name: 'End user licence agreement' });
    expect(await eula.getAttribute('target')).toBe('_blank');
    const href = await eula.getAttribute('href');
    const pdf = await page.request.get(href!);
    expect(pdf.status()).toBe(200);
    expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');
    await context.close();
  });
});
