import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { newPage, seriousAxeViolations } from '../support/browser.js';
import { usePortalAndBrowser } from '../support/portal.js';

const e2e = usePortalAndBrowser();
let context: BrowserContext;

beforeAll(async () => {
  context = await e2e.browser.newContext({ baseURL: e2e.portal.url });
});
afterAll(async () => {
  await context?.close();
});

describe('the web shell', () => {
  it('shows the not-found page for an unknown path, with no CSP violation and no serious axe violation', async () => {
    const { page, watch } = await newPage(context);
    await page.goto('/this/does/not/exist');
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Back to homepage' }).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(watch.problems).toEqual([]);
  });

  it('rewrites a #/ URL to a normal path', async () => {
    const { page } = await newPage(context);
    await page.goto('/#/somewhere');
    await page.waitForFunction(() => window.location.pathname === '/somewhere');
    expect(new URL(page.url()).hash).toBe('');
  });

  it('shows the error view with a reload button when a view fails to load, and the routes again after navigating', async () => {
    const { page } = await newPage(context);
    // a release replaced the forgot-password view's chunk: loading it fails
    await page.route(/\/assets\/forgot-password-page-[^/]+\.js$/, (route) => route.fulfill({ status: 404, body: 'gone' }));
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByRole('heading', { level: 1, name: 'Something went wrong. Please try again' }).waitFor();
    await page.getByRole('button', { name: 'Reload the page' }).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.goBack();
    await page.getByRole('button', { name: 'Next' }).waitFor();
  });

  it('keeps the theme’s colours on the login page after another view brought Mantine’s whole stylesheet', async () => {
    const { page, watch } = await newPage(context);
    const colours = () =>
      page.evaluate(() => {
        const style = (selector: string) => getComputedStyle(document.querySelector(selector)!);
        return { button: style('button[type=submit]').backgroundColor, subtitle: style('h1 + p').color };
      });
    await page.goto('/login');
    await page.getByRole('button', { name: 'Next' }).waitFor();
    // the brand's blue (shade 8) and the darker dimmed text (gray 7) of the theme (components/theme.ts)
    const theme = { button: 'rgb(0, 79, 155)', subtitle: 'rgb(73, 80, 87)' };
    expect(await colours()).toEqual(theme);
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByRole('button', { name: 'Send' }).waitFor();
    await page.goBack();
    await page.getByRole('button', { name: 'Next' }).waitFor();
    expect(await colours()).toEqual(theme);
    expect(watch.problems).toEqual([]);
  });
});
