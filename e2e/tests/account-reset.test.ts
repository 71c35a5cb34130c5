import { describe, expect, it } from 'vitest';
import { createUser } from '@partner-portal/server/test-kit';
import { checkScreen, loginThroughUi, mailLink, open, openContext, usePortalAndBrowser, type ViewportName } from '../support/portal.js';

const e2e = usePortalAndBrowser();

describe.each<ViewportName>(['wide', 'narrow'])('forgot and reset password (%s)', (viewport) => {
  it('requests a link, follows it from the e-mail, sets a new password and logs in with it', async () => {
    const user = await createUser(e2e.portal);
    const context = await openContext(e2e.browser, e2e.portal, { viewport });
    const { page, watch } = await open(context, '/login');
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.waitForURL((url) => url.pathname === '/forgot-password');
    await page.getByRole('heading', { name: 'Forgot your password?' }).waitFor();
    await checkScreen(page, watch, 'forgot-password');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByText('Fill in your e-mail address').waitFor();
    await page.getByLabel('E-mail address').fill(user.email);
    await page.getByRole('button', { name: 'Send' }).click();
    await page.waitForURL((url) => url.pathname === '/forgot-password-confirmation');
    await page.getByRole('heading', { name: 'Check your e-mail' }).waitFor();
    await page.getByRole('link', { name: 'Back to login' }).waitFor();
    await checkScreen(page, watch, 'forgot-password-confirmation');

    const link = await mailLink(e2e.portal, user.email, '/reset-password');
    expect(link.searchParams.get('userId')).toBe(user.id);
    const reset = await open(context, `${link.pathname}${link.search}`);
    await reset.page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    await checkScreen(reset.page, reset.watch, 'reset-password');
    await reset.page.locator('input[name="password"]').fill('Green-Pasture-77');
    await reset.page.locator('input[name="confirm_password"]').fill('Green-Pasture-78');
    await reset.page.getByRole('button', { name: 'Set new password' }).click();
    await reset.page.getByText('Passwords do not match').waitFor();
    await reset.page.locator('input[name="confirm_password"]').fill('Green-Pasture-77');
    await reset.page.getByRole('button', { name: 'Set new password' }).click();
    await reset.page.getByText('Password changed!').waitFor();
    await reset.page.waitForURL((url) => url.pathname === '/login');
    await loginThroughUi(reset.page, user.email, 'Green-Pasture-77');
    await reset.page.waitForURL((url) => url.pathname === '/');

    // the link works once: now it shows the expired view with the way to a new request
    const again = await open(context, `${link.pathname}${link.search}`);
    await again.page.getByRole('heading', { name: 'This link no longer works' }).waitFor();
    await again.page.getByText('Your reset link has already been used or is expired').waitFor();
    await checkScreen(again.page, again.watch, 'reset-password-expired');
    await again.page.getByRole('link', { name: 'Request a new link' }).click();
    await again.page.waitForURL((url) => url.pathname === '/forgot-password');
    await context.close();
  });

  it('shows the expired view for a made-up link', async () => {
    const context = await openContext(e2e.browser, e2e.portal, { viewport });
    const { page } = await open(context, '/reset-password?userId=00000000-0000-4000-8000-000000000000&code=nonsense');
    await page.getByRole('heading', { name: 'This link no longer works' }).waitFor();
    await context.close();
  });
});
