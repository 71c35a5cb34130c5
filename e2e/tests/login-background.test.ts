import { describe, expect, it } from 'vitest';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM, newPage } from '../support/browser.js';
import { usePortalAndBrowser } from '../support/portal.js';

// The login page's background (docs/performance.md, "The login page on a slow connection"): the
// pasture still first, the video once the e-mail field is usable, never for visitors who prefer
// reduced motion, reduced data or Save-Data.

const e2e = usePortalAndBrowser();

/** Records, inside the page, when the e-mail field first is usable and when a video first exists. */
async function watchOrder(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const w = window as unknown as { __order: { email: number | null; video: number | null } };
    w.__order = { email: null, video: null };
    const check = () => {
      const email = document.querySelector<HTMLInputElement>('input[name=email]');
      if (w.__order.email === null && email && !email.disabled && email.getBoundingClientRect().width > 0)
        w.__order.email = performance.now();
      if (w.__order.video === null && document.querySelector('video')) w.__order.video = performance.now();
    };
    new MutationObserver(check).observe(document, { childList: true, subtree: true, attributes: true });
  });
}

/**
 * Resolves at the moment the background starts its video, when it does (login-background.tsx,
 * whenPageUsable): the page has loaded, the browser has had its idle moment after that (asked for
 * after the background's own request, so answered after it), and the frame after it is drawn.
 */
async function pastTheVideosMoment(page: Page): Promise<void> {
  await page.locator('input[name=email]').waitFor();
  await page.waitForLoadState('load');
  await page.evaluate(
    () =>
      new Promise<void>((resolve) =>
        requestIdleCallback(() => requestAnimationFrame(() => requestAnimationFrame(() => resolve())), { timeout: 2000 }),
      ),
  );
}

async function stillAndNoVideo(page: Page): Promise<void> {
  await pastTheVideosMoment(page);
  expect(await page.locator('video').count()).toBe(0);
  expect(await page.locator('img[src="/media/pasture.svg"]').count()).toBe(1);
}

describe('the login page background', () => {
  it('shows the pasture still first and starts the looping muted video only once the e-mail field is usable', async () => {
    const context = await e2e.browser.newContext({ baseURL: e2e.portal.url });
    await watchOrder(context);
    const { page, watch } = await newPage(context);
    await page.goto('/login');
    await page.locator('img[src="/media/pasture.svg"]').waitFor({ state: 'attached' });
    // the moment the other tests wait for, before they say there is no video, is late enough
    await pastTheVideosMoment(page);
    const video = page.locator('video');
    expect(await video.count()).toBe(1);
    const order = await page.evaluate(() => (window as unknown as { __order: { email: number | null; video: number | null } }).__order);
    expect(order.email).not.toBeNull();
    expect(order.video).toBeGreaterThan(order.email!);
    expect(
      await video.evaluate((v: HTMLVideoElement) => ({ muted: v.muted, loop: v.loop, src: new URL(v.currentSrc || v.src).pathname })),
    ).toEqual({
      muted: true,
      loop: true,
      src: '/media/pasture.webm',
    });
    // it really plays (then it fades in over the still)
    await page.locator('video[data-playing]').waitFor({ state: 'attached', timeout: 15_000 });
    const still = await context.request.get('/media/pasture.svg');
    expect(still.status()).toBe(200);
    expect(still.headers()['content-type']).toContain('image/svg+xml');
    expect(watch.problems).toEqual([]);
    await context.close();
  });

  it('never plays the video for a visitor who prefers reduced motion', async () => {
    const context = await e2e.browser.newContext({ baseURL: e2e.portal.url, reducedMotion: 'reduce' });
    const { page } = await newPage(context);
    await page.goto('/login');
    await stillAndNoVideo(page);
    await context.close();
  });

  it('never plays the video for a visitor who prefers reduced data', async () => {
    // Chromium answers the reduced-data media query only with this Blink feature on
    const withReducedData = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--enable-blink-features=PrefersReducedData'],
    });
    const context = await withReducedData.newContext({ baseURL: e2e.portal.url });
    const { page } = await newPage(context);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setEmulatedMedia', { features: [{ name: 'prefers-reduced-data', value: 'reduce' }] });
    await page.goto('/login');
    expect(await page.evaluate(() => window.matchMedia('(prefers-reduced-data: reduce)').matches)).toBe(true);
    await stillAndNoVideo(page);
    await withReducedData.close();
  });

  it('never plays the video when the browser asks to save data', async () => {
    const context = await e2e.browser.newContext({ baseURL: e2e.portal.url });
    // Chromium's Save-Data setting (navigator.connection.saveData) has no switch in headless mode
    await context.addInitScript(() => {
      Object.defineProperty(Navigator.prototype, 'connection', { configurable: true, get: () => ({ saveData: true }) });
    });
    const { page } = await newPage(context);
    await page.goto('/login');
    await stillAndNoVideo(page);
    await context.close();
  });
});
