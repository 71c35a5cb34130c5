import { describe, expect, it } from 'vitest';
import { createUser } from '@partner-portal/server/test-kit';
import { newPage } from '../support/browser.js';
import { openContext, screenshot, usePortalAndBrowser } from '../support/portal.js';
import { webText } from '../support/texts.js';

/**
 * The styles of the application's screens are there after a normal sign-in: the pre-rendered sign-in
 * page hands over to the application, which then opens screens whose styles the pre-rendered page
 * did not carry (docs/decisions/021-pre-rendered-public-pages.md). Seen: the tabs of the
 * organization page without their selected state (no padding, no border) until a reload.
 */
const e2e = usePortalAndBrowser();

/** What the selected tab of the organization page's "Domains and sign-in" section looks like. */
async function selectedTabStyle(page: import('playwright-core').Page) {
  const tab = page.getByTestId('dealer-identity').locator('[role=tab][aria-selected=true]').first();
  await tab.waitFor();
  return tab.evaluate((el) => {
    const style = getComputedStyle(el);
    return { paddingLeft: style.paddingLeft, borderBottomWidth: style.borderBottomWidth, borderBottomStyle: style.borderBottomStyle };
  });
}

describe('styles after a sign-in through the pre-rendered page', () => {
  it('the organization page’s tabs show their selected state right after signing in (nl, 1280 px)', async () => {
    const language = 'nl';
    const user = await createUser(e2e.portal, { language });
    // a manager of the provider's organization: the user management tile and the "Domains and sign-in" section
    await e2e.portal.services.db.query('UPDATE memberships SET rights = $2 WHERE user_id = $1', [
      user.id,
      JSON.stringify({ partner_portal: { user_full_permission: true } }),
    ]);
    const context = await openContext(e2e.browser, e2e.portal, { viewport: { width: 1280, height: 900 }, language });
    const { page, watch } = await newPage(context);
    // the pre-rendered page carries the entry's stylesheet inline: it is not loaded again
    const stylesheets: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'stylesheet') stylesheets.push(new URL(request.url()).pathname);
    });
    await page.goto('/login');
    await page.getByLabel(webText(language, 'email_address')).waitFor();
    expect(stylesheets).toEqual([]);
    await page.getByLabel(webText(language, 'email_address')).fill(user.email);
    stylesheets.length = 0;
    await page.getByRole('button', { name: webText(language, 'next') }).click();
    const password = page.locator('input[name="password"]');
    await password.waitFor();
    await password.fill(user.password);
    await page.getByRole('button', { name: webText(language, 'login') }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page
      .getByRole('link', { name: new RegExp(webText(language, 'user_management_tile')) })
      .first()
      .click();
    await page.waitForURL((url) => url.pathname.startsWith('/manage-organization/'));
    const afterSignIn = await selectedTabStyle(page);
    // the views' styles were loaded, the entry's not again
    expect(stylesheets.some((path) => /\/assets\/index-[^/]+\.css$/.test(path))).toBe(false);
    await screenshot(page, 'styles-after-sign-in-tabs-nl-1280');
    await page.reload();
    const afterReload = await selectedTabStyle(page);
    expect(afterSignIn).toEqual(afterReload);
    expect(afterSignIn.paddingLeft).not.toBe('0px');
    expect(watch.problems).toEqual([]);
    await context.close();
  });

  it('after the password, the card shows a spinner while the next page loads, not an empty card with the language picker (de, 390 px)', async () => {
    const language = 'de';
    const user = await createUser(e2e.portal, { language });
    const context = await openContext(e2e.browser, e2e.portal, { viewport: { width: 390, height: 844 }, language });
    const { page, watch } = await newPage(context);
    // the home page's code held back until the card has been looked at
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/(home-page|app-layout|guards)-[^/]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/login');
    await page.getByLabel(webText(language, 'email_address')).fill(user.email);
    await page.getByRole('button', { name: webText(language, 'next') }).click();
    const password = page.locator('input[name="password"]');
    await password.waitFor();
    await password.fill(user.password);
    await page.getByRole('button', { name: webText(language, 'login') }).click();
    await page
      .getByRole('status')
      .filter({ has: page.getByLabel(webText(language, 'loading')) })
      .first()
      .waitFor();
    await screenshot(page, 'sign-in-loading-de-390');
    release();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    expect(watch.problems).toEqual([]);
    await context.close();
  });
});
