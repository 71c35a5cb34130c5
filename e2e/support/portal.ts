import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startPortal as startServerPortal, type HttpClient, type TestPortal } from '@partner-portal/server/test-kit';
import { axeProblems, newPage, whenStill, workerBrowser, type PageWatch } from './browser.js';
import { userLanguageFor } from '@partner-portal/contracts';

/**
 * The portal in Chromium: the portal started for a test file, browser contexts (anonymous or
 * signed in), pages, the checks every screen gets, the links of the e-mails it sends.
 */

export const SCREENSHOTS = fileURLToPath(new URL('../../screenshots/', import.meta.url));
mkdirSync(SCREENSHOTS, { recursive: true });

/** A desktop and the narrowest tablet (docs/product.md, "Limits and constants": every screen works at 768 px and below). */
export const VIEWPORTS = { wide: { width: 1280, height: 900 }, narrow: { width: 768, height: 1000 } } as const;
export type ViewportName = keyof typeof VIEWPORTS;
export type Viewport = ViewportName | { width: number; height: number };

/**
 * The portal for a test file, serving the web app's build. E2E_WEB_DIST_DIR serves a build other
 * than apps/web/dist (useful when several people rebuild the shared one at once).
 */
export async function startPortal(env: Record<string, string> = {}, options: { publicHost?: string } = {}): Promise<TestPortal> {
  const dist = process.env.E2E_WEB_DIST_DIR;
  return startServerPortal({ ...(dist ? { WEB_DIST_DIR: dist } : {}), ...env }, options);
}

/** The portal and Chromium of a test file, there from its first `beforeAll` on. */
export interface PortalAndBrowser {
  readonly portal: TestPortal;
  readonly browser: Browser;
}

/**
 * Starts the portal (startPortal's environment and options) before the file's tests and closes it
 * after them, with the worker's Chromium (workerBrowser: launched once per vitest worker, not per
 * file); the browser contexts the file left open are closed after its tests, so the next file
 * starts with none. Call it at the top of the file, before the file's own hooks: its `beforeAll`
 * runs first and its `afterAll` last, so the file's own set-up can use both.
 */
export function usePortalAndBrowser(env: Record<string, string> = {}, options: { publicHost?: string } = {}): PortalAndBrowser {
  let portal: TestPortal | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    [portal, browser] = await Promise.all([startPortal(env, options), workerBrowser()]);
  });
  afterAll(async () => {
    if (browser?.isConnected()) await Promise.all(browser.contexts().map((context) => context.close()));
    await portal?.close();
  });
  const notYet = (what: string) => new Error(`the ${what} is there from the test file's first beforeAll on (usePortalAndBrowser)`);
  return {
    get portal() {
      if (!portal) throw notYet('portal');
      return portal;
    },
    get browser() {
      if (!browser) throw notYet('browser');
      return browser;
    },
  };
}

/** The redirect_uri of a relying-party application whose callback is a tiny page on its own port. */
export interface ApplicationCallback {
  readonly redirectUri: string;
}

/** Serves the application's callback page ("Signed in") from the file's `beforeAll` on, and stops it after the tests. */
export function useApplicationCallback(): ApplicationCallback {
  let application: Server | undefined;
  let redirectUri = '';
  beforeAll(async () => {
    const server = createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Herd Monitor</title><h1>Signed in</h1>'),
    );
    application = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    redirectUri = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/callback`;
  });
  afterAll(async () => {
    await new Promise((resolve) => application?.close(resolve));
  });
  return {
    get redirectUri() {
      return redirectUri;
    },
  };
}

export interface ContextOptions {
  viewport?: Viewport;
  /** the interface language the page starts in (the language picker's choice, kept in localStorage) */
  language?: string;
  /** reduced motion (the default) keeps screenshots steady; false lets the page animate */
  reducedMotion?: boolean;
}

/** A browser context for the portal, signed in to nothing. */
export async function openContext(browser: Browser, portal: TestPortal, options: ContextOptions = {}): Promise<BrowserContext> {
  const viewport = options.viewport ?? 'wide';
  const context = await browser.newContext({
    baseURL: portal.url,
    viewport: typeof viewport === 'string' ? VIEWPORTS[viewport] : viewport,
    reducedMotion: options.reducedMotion === false ? 'no-preference' : 'reduce',
  });
  if (options.language) await context.addInitScript((language) => localStorage.setItem('pp.language', language), options.language);
  return context;
}

/**
 * A browser context signed in as a user (a session made directly, no login UI: loginThroughUi signs
 * in through the page), or holding the session of a client (the same session the test's API calls use).
 */
export async function signedIn(
  browser: Browser,
  portal: TestPortal,
  as: string | HttpClient,
  options: ContextOptions = {},
): Promise<BrowserContext> {
  // a signed-in page speaks the user's saved language (docs/decisions/012-user-languages.md): the
  // language asked for becomes the user's, as if they had chosen it in the picker
  if (options.language) {
    const userId = typeof as === 'string' ? as : ((await as.get('/api/identity/user-info')).body as { id: string }).id;
    await portal.services.db.query('UPDATE users SET language_code = $2 WHERE id = $1', [userId, userLanguageFor(options.language)]);
  }
  const client = typeof as === 'string' ? await portal.sessionFor(as) : as;
  const context = await openContext(browser, portal, options);
  await context.addCookies([...client.cookies].map(([name, value]) => ({ name, value, url: portal.url })));
  return context;
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

export async function open(context: BrowserContext, path: string): Promise<{ page: Page; watch: PageWatch }> {
  const { page, watch } = await newPage(context);
  await page.goto(path);
  return { page, watch };
}

/** Wait until Mantine's modal transition has finished (so screenshots and axe see it whole). */
export async function openDialog(page: Page, name: string | RegExp) {
  const dialog = page.getByRole('dialog', { name });
  await dialog.waitFor();
  await whenStill(page);
  return dialog;
}

export async function screenshot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  await page.screenshot({ path: `${SCREENSHOTS}${name}.png`, fullPage: options.fullPage ?? false });
}

/** Wait for the page to settle, save a screenshot, and check axe, the console and the width. */
export async function checkScreen(page: Page, watch: PageWatch, name: string): Promise<void> {
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await whenStill(page);
  await screenshot(page, `account-${name}-${page.viewportSize()?.width ?? 0}`, { fullPage: true });
  expect(await axeProblems(page), `axe on ${name}`).toEqual([]);
  expect(
    watch.problems.filter((p) => !/status of (401|403|404|409|400|429)/.test(p)),
    `console on ${name}`,
  ).toEqual([]);
  // nothing wider than the viewport (docs/product.md, "Limits and constants": every screen works at 768 px and below)
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `horizontal overflow on ${name}`).toBeLessThanOrEqual(0);
}

/** The link of the latest e-mail to the address whose link contains the fragment. */
export async function mailLink(portal: TestPortal, email: string, fragment: string): Promise<URL> {
  const mail = await portal.smtp.waitFor(email, (m) => m.links.some((l) => l.includes(fragment)));
  return new URL(mail.links.find((l) => l.includes(fragment))!);
}

/** The invitation link of the first e-mail to the address after the first `after` e-mails the sink caught. */
export async function invitationLink(portal: TestPortal, email: string, after = 0): Promise<URL> {
  const mail = await portal.smtp.waitFor(
    email,
    (m) => m.links.some((l) => l.includes('/invitation')) && portal.smtp.messages.indexOf(m) >= after,
  );
  return new URL(mail.links.find((l) => l.includes('/invitation'))!);
}

/** The user id of a member by e-mail, from the database. */
export async function userIdOf(portal: TestPortal, email: string): Promise<string> {
  const { rows } = await portal.services.db.query<{ id: string }>('SELECT id FROM users WHERE lower(email) = lower($1)', [email]);
  return rows[0]!.id;
}
