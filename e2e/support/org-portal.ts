import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { TestPortal } from '../../apps/server/test/support/portal.js';
import type { HttpClient } from '../../apps/server/test/support/http.js';
import { seriousAxeViolations } from './browser.js';

/** Helpers for the organization-management and invitation stories. */

export const SCREENSHOTS = fileURLToPath(new URL('../../screenshots/', import.meta.url));
mkdirSync(SCREENSHOTS, { recursive: true });

export const WIDE = { width: 1280, height: 900 };
export const NARROW = { width: 768, height: 1000 };

/** A browser context signed in as the user (session cookie made directly, no login UI). */
export async function signedInContext(
  browser: Browser,
  portal: TestPortal,
  userId: string,
  viewport = WIDE,
): Promise<{ context: BrowserContext; client: HttpClient }> {
  const client = await portal.sessionFor(userId);
  const context = await browser.newContext({ baseURL: portal.url, viewport });
  const cookies = [...client.cookies].map(([name, value]) => ({ name, value, url: portal.url }));
  await context.addCookies(cookies);
  return { context, client };
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `${SCREENSHOTS}${name}.png`, fullPage: false });
}

/** No serious or critical axe violation, reported readably when there are. */
export async function axeClean(page: Page): Promise<string[]> {
  const violations = await seriousAxeViolations(page);
  return violations.map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** The invitation link of the latest e-mail to the address. */
export async function invitationLink(portal: TestPortal, email: string, after = 0): Promise<URL> {
  const mail = await portal.smtp.waitFor(
    email,
    (m) => m.links.some((l) => l.includes('/invitation')) && portal.smtp.messages.indexOf(m) >= after,
  );
  const link = mail.links.find((l) => l.includes('/invitation'))!;
  return new URL(link);
}

/** Wait until Mantine's modal transition has finished (so screenshots and axe see it whole). */
export async function openDialog(page: Page, name: string | RegExp) {
  const dialog = page.getByRole('dialog', { name });
  await dialog.waitFor();
  await page.waitForTimeout(300);
  return dialog;
}

/** The user id of a member by e-mail, from the database. */
export async function userIdOf(portal: TestPortal, email: string): Promise<string> {
  const { rows } = await portal.services.db.query<{ id: string }>('SELECT id FROM users WHERE lower(email) = lower($1)', [email]);
  return rows[0]!.id;
}
