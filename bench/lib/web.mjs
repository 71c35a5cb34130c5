// Web: gzipped JavaScript per route, and the tree filter's time per keystroke, in real Chromium.
import { gzipSync } from 'node:zlib';
import { fromE2e, percentile, round, Unavailable } from './util.mjs';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function launch() {
  const { chromium } = fromE2e('playwright-core');
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
}

/** A browser context signed in through the portal's API (cookies land in the context's jar). */
export async function signedInContext(browser, baseUrl, email, password) {
  const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 900 } });
  const headers = { 'x-csrf': '1', 'content-type': 'application/json' };
  await context.request.post('/api/identity/email-login', { headers, data: { email } });
  const res = await context.request.post('/api/identity/login', { headers, data: { email, password, remember: false } });
  if (res.status() === 404) throw new Unavailable('unavailable (404: POST /api/identity/login)');
  if (res.status() !== 200) throw new Error(`browser login: ${res.status()}`);
  return context;
}

/**
 * Load a route, wait until the network is idle, and sum the JavaScript the page fetched: each
 * script response body is gzipped (level 9, what a static server would send) and counted.
 */
export async function routeJavaScript(context, path, { settle } = {}) {
  const page = await context.newPage();
  const pending = [];
  page.on('response', (response) => {
    const url = response.url();
    const type = response.request().resourceType();
    if (type === 'script' || /\.m?js(\?|$)/.test(url)) {
      pending.push(
        response
          .body()
          .then((body) => ({ file: new URL(url).pathname, bytes: body.length, gzip: gzipSync(body, { level: 9 }).length }))
          .catch(() => null),
      );
    }
  });
  await page.goto(path, { waitUntil: 'networkidle', timeout: 60_000 });
  if (settle) await settle(page);
  await page.waitForTimeout(500);
  const files = (await Promise.all(pending)).filter(Boolean);
  const seen = new Set();
  const unique = files.filter((f) => (seen.has(f.file) ? false : seen.add(f.file)));
  return {
    page,
    finalPath: new URL(page.url()).pathname,
    files: unique.sort((a, b) => b.gzip - a.gzip),
    gzipKb: round(unique.reduce((s, f) => s + f.gzip, 0) / 1024),
    rawKb: round(unique.reduce((s, f) => s + f.bytes, 0) / 1024),
  };
}

/**
 * Time per keystroke of the side tree's filter: real key presses; for each, the time from the
 * keydown event to the frame after it (React renders the filtered tree synchronously on input),
 * measured inside the page. Types `query` one character at a time, then deletes it again.
 */
export async function treeFilterTiming(page, query, rounds = 2) {
  const found = await page
    .waitForSelector('[role=tree]', { timeout: 30_000, state: 'attached' })
    .then(() => true)
    .catch(() => false);
  if (!found) throw new Unavailable('unavailable (no [role=tree] on the manage page)');
  const ok = await page.evaluate(() => {
    const tree = document.querySelector('[role=tree]');
    const input = tree?.parentElement?.querySelector('input') ?? document.querySelector('input[placeholder*="ilter" i], input[aria-label*="ilter" i]');
    if (!input) return false;
    input.setAttribute('data-bench-filter', '1');
    window.__benchKeys = [];
    input.addEventListener(
      'keydown',
      (e) => {
        const t0 = e.timeStamp;
        requestAnimationFrame(() => {
          const channel = new MessageChannel();
          channel.port1.onmessage = () => window.__benchKeys.push(performance.now() - t0);
          channel.port2.postMessage(0);
        });
      },
      true,
    );
    return true;
  });
  if (!ok) throw new Unavailable('unavailable (no filter box next to the tree)');
  const input = page.locator('[data-bench-filter]');
  await input.click();
  const keys = [];
  for (let r = 0; r < rounds; r++) {
    for (const ch of query) keys.push(ch);
    for (let i = 0; i < query.length; i++) keys.push('Backspace');
  }
  for (let i = 0; i < keys.length; i++) {
    await page.keyboard.press(keys[i]);
    await page.waitForFunction((n) => window.__benchKeys.length >= n, i + 1, { timeout: 10_000 });
    await page.waitForTimeout(30);
  }
  const times = await page.evaluate(() => window.__benchKeys);
  return {
    keystrokes: times.length,
    p50: round(percentile(times, 50)),
    p95: round(percentile(times, 95)),
    max: round(Math.max(...times)),
    query,
  };
}
