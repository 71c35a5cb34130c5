import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { HttpClient } from '../../apps/server/test/support/http.js';
import type { TestPortal } from '../../apps/server/test/support/portal.js';
import { createUser, type TestUser } from '../../apps/server/test/identity/support.js';
import { launchBrowser } from '../support/browser.js';
import { checkScreen, loginThroughUi, open, openContext, signedIn, startAccountPortal, type ViewportName } from '../support/account.js';

/** The profile's list of active sessions: see them, end one, end all the others; in English and Dutch. */
let portal: TestPortal;
let browser: Browser;

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:131.0) Gecko/20100101 Firefox/131.0';
const SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

beforeAll(async () => {
  portal = await startAccountPortal({ LOGIN_RATE_LIMIT_PER_ACCOUNT: '1000', LOGIN_RATE_LIMIT_PER_IP: '1000' });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await portal?.close();
});

/** Another device signed in with a password (its own User-Agent). */
async function otherDevice(user: TestUser, userAgent: string): Promise<HttpClient> {
  const client = portal.client();
  const res = await client.post(
    '/api/identity/login',
    { email: user.email, password: user.password },
    { headers: { 'user-agent': userAgent } },
  );
  expect(res.status).toBe(200);
  return client;
}

describe.each<[ViewportName, 'en' | 'nl']>([
  ['wide', 'en'],
  ['narrow', 'nl'],
])('active sessions on the profile (%s, %s)', (viewport, language) => {
  const text =
    language === 'en'
      ? {
          heading: 'Active sessions',
          current: 'This browser',
          end: 'End session',
          endOthers: 'Sign out all other sessions',
          ended: 'Session ended',
          othersEnded: 'Other sessions ended: 1',
          alone: 'You are not signed in anywhere else.',
        }
      : {
          heading: 'Actieve sessies',
          current: 'Deze browser',
          end: 'Sessie beëindigen',
          endOthers: 'Alle andere sessies uitloggen',
          ended: 'Sessie beëindigd',
          othersEnded: 'Andere sessies beëindigd: 1',
          alone: 'Je bent nergens anders ingelogd.',
        };

  it('lists the sessions, ends one, then all the others', async () => {
    const user = await createUser(portal, { language });
    const context = await openContext(browser, portal, viewport);
    const { page, watch } = await open(context, '/login');
    await loginThroughUi(page, user.email, user.password);
    await page.waitForURL((url) => url.pathname === '/');
    const firefox = await otherDevice(user, FIREFOX);
    const phone = await otherDevice(user, SAFARI);

    await page.goto('/profile');
    const section = page.getByRole('region', { name: text.heading });
    // on a time-out, say what the page showed instead (where it was, in which language)
    await section.waitFor().catch(async (err: unknown) => {
      const shown = await page.evaluate(
        () => `${location.pathname} [${document.documentElement.lang}] ${document.body.innerText.slice(0, 400)}`,
      );
      throw new Error(`${String(err)}\nthe page showed: ${shown}`);
    });
    const items = section.getByRole('listitem');
    await expect.poll(() => items.count()).toBe(3);
    // this browser first, marked; the others by browser and system, with the address
    await expect.poll(() => items.first().textContent()).toContain(text.current);
    await section.getByText('Firefox (Linux)').waitFor();
    await section.getByText('Safari (iOS)').waitFor();
    expect(await section.getByText('127.0.0.1').count()).toBe(3);
    await checkScreen(page, watch, `sessions-${language}`);

    // end the Firefox session
    await section.getByRole('button', { name: new RegExp(`^${text.end}: Firefox \\(Linux\\)`) }).click();
    await page.getByText(text.ended).waitFor();
    await expect.poll(() => items.count()).toBe(2);
    expect((await firefox.get('/api/identity/user-info')).status).toBe(401);
    expect((await phone.get('/api/identity/user-info')).status).toBe(200);

    // end all the others
    await section.getByRole('button', { name: text.endOthers }).click();
    await page.getByText(text.othersEnded).waitFor();
    await section.getByText(text.alone).waitFor();
    await expect.poll(() => items.count()).toBe(1);
    expect((await phone.get('/api/identity/user-info')).status).toBe(401);
    expect(await section.getByRole('button', { name: text.endOthers }).count()).toBe(0);
    await checkScreen(page, watch, `sessions-${language}-alone`);
    await context.close();
  });
});

describe('the profile follows a language picked on it', () => {
  // The interface switches as soon as another language is picked (before saving); the sessions
  // panel has translations of its own, which must arrive with the switch, not after it.
  it('shows the sessions panel in the language picked, also on a slow link', async () => {
    const user = await createUser(portal, { language: 'en' });
    const context = await signedIn(browser, portal, user.id);
    await context.route(/\/assets\/de-[^/]*\.js$/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await route.continue();
    });
    const { page } = await open(context, '/profile');
    await page.getByRole('region', { name: 'Active sessions' }).waitFor();
    await page.getByLabel('Preferred language').selectOption({ label: 'Deutsch' });
    await page.getByRole('region', { name: 'Aktive Sitzungen' }).waitFor({ timeout: 10_000 });
    await context.close();
  });
});
