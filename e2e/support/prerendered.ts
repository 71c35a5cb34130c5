import type { Page } from 'playwright-core';

/**
 * The pre-rendered public pages before their scripts (apps/web/src/lib/hand-over.ts): a
 * page's scripts held back by route interception, and the moment the application has taken the
 * page over.
 */

/** Holds back every script of the application until the returned function is called. */
export async function holdScripts(page: Page): Promise<() => void> {
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/assets/**/*.js', async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

/** Resolves once the application has taken the pre-rendered page over (the hand-over is no longer live). */
export async function hydrated(page: Page): Promise<void> {
  await page.waitForFunction(() => (window as { __ppHandOver?: { live: boolean } }).__ppHandOver?.live === false, undefined, {
    timeout: 30_000,
  });
}
