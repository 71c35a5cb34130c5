import { mkdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createUser } from '@partner-portal/server/test-kit';
import { axeProblems, whenStill } from '../support/browser.js';
import { open, openContext, usePortalAndBrowser } from '../support/portal.js';

/**
 * Sign-in paused for an account (the password step's limit, docs/security.md "Limits and
 * thresholds"): past the limit the login page says so in place, counting down to the end of the
 * pause (the 429's Retry-After) in the interface language, with what to do; the password typed
 * stays; when the pause is over the message goes and the same password signs in. The portal runs
 * with a low limit and a short window so the test sees the pause end.
 */
const LIMIT = 2;
const WINDOW_SECONDS = 20;
const SHOTS = '/tmp/shots-lockout/';
mkdirSync(SHOTS, { recursive: true });

const e2e = usePortalAndBrowser({
  LOGIN_RATE_LIMIT_PER_ACCOUNT: String(LIMIT),
  LOGIN_RATE_LIMIT_WINDOW_SECONDS: String(WINDOW_SECONDS),
});

const TEXTS = {
  nl: { title: 'Inloggen is gepauzeerd voor dit account', seconds: /^\d+\sseconden?$/, invalid: 'Ongeldige inloggegevens' },
  'pt-BR': { title: 'O login nesta conta está pausado', seconds: /^\d+\ssegundos?$/, invalid: 'Login inválido' },
} as const;

describe.each(Object.keys(TEXTS) as (keyof typeof TEXTS)[])('sign-in paused (%s, 390 px)', (language) => {
  it('says so in place, counting down, keeps the password, and lets the right password in once the pause is over', async () => {
    const texts = TEXTS[language];
    const user = await createUser(e2e.portal);
    const context = await openContext(e2e.browser, e2e.portal, { viewport: { width: 390, height: 844 }, language });
    const { page, watch } = await open(context, '/login');
    page.setDefaultTimeout(15_000);
    await page.locator('input[name="email"]').fill(user.email);
    await page.locator('button[type="submit"]').click();
    const password = page.locator('input[name="password"]');
    await password.waitFor();

    // the wrong passwords use up the account's allowance
    for (let i = 0; i < LIMIT; i++) {
      await password.fill(`Wrong-Passw0rd-${i}`);
      await page.locator('button[type="submit"]').click();
      await page.getByRole('alert').filter({ hasText: texts.invalid }).waitFor();
      await expect.poll(() => password.inputValue()).toBe('');
    }

    // the right one is refused while sign-in is paused: an alert in the page, not a toast
    await password.fill(user.password);
    await page.locator('button[type="submit"]').click();
    const alert = page.getByRole('alert').filter({ hasText: texts.title });
    await alert.waitFor();
    const timer = alert.getByRole('timer');
    const left = async () => Number((await timer.innerText()).trim().split(/\s/)[0]);
    expect((await timer.innerText()).trim()).toMatch(texts.seconds);
    const first = await left();
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThanOrEqual(WINDOW_SECONDS);
    expect(await password.inputValue()).toBe(user.password);
    // what to do: reset the password (the address goes along) or ask the administrator
    const reset = alert.getByRole('link');
    expect(await reset.getAttribute('href')).toBe(`/forgot-password?email=${encodeURIComponent(user.email)}`);
    await page.locator('.mantine-Notification-root').waitFor({ state: 'detached' });

    // it counts down and stays while the pause lasts
    await expect.poll(left, { timeout: 5_000 }).toBeLessThan(first);
    await whenStill(page);
    expect(await axeProblems(page)).toEqual([]);
    for (const width of [390, 768, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: `${SHOTS}login-paused-${language}-${width}.png`, fullPage: true });
    }
    await page.setViewportSize({ width: 390, height: 844 });

    // the reset link opens the forgot-password page with the address filled in
    const forgot = await context.newPage();
    await forgot.goto(`/forgot-password?email=${encodeURIComponent(user.email)}`);
    await expect.poll(() => forgot.locator('input[type="email"]').inputValue()).toBe(user.email);
    await forgot.close();

    // the pause ends: the message goes, and the password still there signs in
    await alert.waitFor({ state: 'detached', timeout: (WINDOW_SECONDS + 5) * 1000 });
    expect(await password.inputValue()).toBe(user.password);
    await page.locator('button[type="submit"]').click();
    await page.waitForURL((url) => url.pathname === '/');
    expect(watch.problems).toEqual([]);
    await context.close();
  }, 90_000);
});
