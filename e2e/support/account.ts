import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { TestPortal } from '../../apps/server/test/support/portal.js';
import { newPage, seriousAxeViolations, type PageWatch } from './browser.js';

/** Helpers for the account screens: viewports, screenshots, checks every screen gets. */

export const SCREENSHOT_DIR = fileURLToPath(new URL('../../screenshots/', import.meta.url));
mkdirSync(SCREENSHOT_DIR, { recursive: true });

export const VIEWPORTS = { wide: { width: 1280, height: 860 }, narrow: { width: 768, height: 1000 } } as const;
export type ViewportName = keyof typeof VIEWPORTS;

export async function openContext(
  browser: Browser,
  portal: TestPortal,
  viewport: ViewportName = 'wide',
  options: { reducedMotion?: boolean } = {},
): Promise<BrowserContext> {
  return browser.newContext({
    baseURL: portal.url,
    viewport: VIEWPORTS[viewport],
    reducedMotion: options.reducedMotion === false ? 'no-preference' : 'reduce',
  });
}

/** A context signed in as the user through a session made directly (no login UI). */
export async function signedIn(
  browser: Browser,
  portal: TestPortal,
  userId: string,
  viewport: ViewportName = 'wide',
): Promise<BrowserContext> {
  const client = await portal.sessionFor(userId);
  const context = await openContext(browser, portal, viewport);
  await context.addCookies([...client.cookies].map(([name, value]) => ({ name, value, url: portal.url })));
  return context;
}

export async function open(context: BrowserContext, path: string): Promise<{ page: Page; watch: PageWatch }> {
  const { page, watch } = await newPage(context);
  await page.goto(path);
  return { page, watch };
}

/** Wait for transitions to settle, save a screenshot, and check axe and the console. */
export async function checkScreen(page: Page, watch: PageWatch, name: string): Promise<void> {
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await page.waitForTimeout(250);
  const width = page.viewportSize()?.width ?? 0;
  await page.screenshot({ path: `${SCREENSHOT_DIR}account-${name}-${width}.png`, fullPage: true });
  const violations = await seriousAxeViolations(page);
  expect(
    violations.map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    `axe on ${name}`,
  ).toEqual([]);
  expect(
    watch.problems.filter((p) => !/status of (401|403|404|409|400|429)/.test(p)),
    `console on ${name}`,
  ).toEqual([]);
  // nothing wider than the viewport (docs/product.md, "Limits and constants": every screen works at 768 px and below)
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `horizontal overflow on ${name}`).toBeLessThanOrEqual(0);
}

/** The two-step login through the UI. */
export async function loginThroughUi(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('E-mail address').fill(email);
  await page.getByRole('button', { name: 'Next' }).click();
  const passwordField = page.locator('input[name="password"]');
  await passwordField.waitFor();
  await passwordField.fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

/** The link of the latest e-mail to the address whose link contains the fragment. */
export async function mailLink(portal: TestPortal, email: string, fragment: string): Promise<URL> {
  const mail = await portal.smtp.waitFor(email, (m) => m.links.some((l) => l.includes(fragment)));
  return new URL(mail.links.find((l) => l.includes(fragment))!);
}

/**
 * The portal for an account test file. E2E_WEB_DIST_DIR serves a web build other than
 * apps/web/dist (useful when several people rebuild the shared one at once).
 */
export async function startAccountPortal(env: Record<string, string> = {}): Promise<TestPortal> {
  const { startPortal } = await import('../../apps/server/test/support/portal.js');
  const dist = process.env.E2E_WEB_DIST_DIR;
  return startPortal({ ...(dist ? { WEB_DIST_DIR: dist } : {}), ...env });
}
