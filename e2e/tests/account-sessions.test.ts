import { describe, expect, it } from 'vitest';
import { createUser, signIn } from '@partner-portal/server/test-kit';
import { checkScreen, loginThroughUi, open, openContext, signedIn, usePortalAndBrowser, type ViewportName } from '../support/portal.js';

/** The profile's list of active sessions: see them, end one, end all the others; in English and Dutch. */
const e2e = usePortalAndBrowser({ LOGIN_RATE_LIMIT_PER_ACCOUNT: '1000', LOGIN_RATE_LIMIT_PER_IP: '1000' });

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:131.0) Gecko/20100101 Firefox/131.0';
const SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

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
    const user = await createUser(e2e.portal, { language });
    const context = await openContext(e2e.browser, e2e.portal, { viewport });
    const { page, watch } = await open(context, '/login');
    await loginThroughUi(page, user.email, user.password);
    await page.waitForURL((url) => url.pathname === '/');
    const firefox = await signIn(e2e.portal.client(), user, { userAgent: FIREFOX });
    const phone = await signIn(e2e.portal.client(), user, { userAgent: SAFARI });

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
    const user = await createUser(e2e.portal, { language: 'en' });
    const context = await signedIn(e2e.browser, e2e.portal, user.id);
    // the German translations are held back until the test has seen the page wait for them
    let asked!: () => void;
    const germanAsked = new Promise<void>((resolve) => (asked = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await context.route(/\/assets\/de-[^/]*\.js$/, async (route) => {
      asked();
      await released;
      await route.continue();
    });
    const { page } = await open(context, '/profile');
    await page.getByRole('region', { name: 'Active sessions' }).waitFor();
    await page.getByLabel('Preferred language').selectOption({ label: 'Deutsch' });
    await germanAsked;
    // meanwhile the page stays whole in English, sessions panel included
    expect(await page.getByRole('region', { name: 'Active sessions' }).count()).toBe(1);
    release();
    await page.getByRole('region', { name: 'Aktive Sitzungen' }).waitFor({ timeout: 10_000 });
    await context.close();
  });
});
