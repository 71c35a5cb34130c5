// Web: gzipped JavaScript per route, and the tree filter's time per keystroke, in real Chromium.
import { loadavg } from 'node:os';
import { gzipSync } from 'node:zlib';
import { CHROMIUM, CHROMIUM_ARGS } from '../../e2e/support/chromium.mjs';
import { fromE2e, percentile, round, Unavailable } from './util.mjs';

export { CHROMIUM };

export async function launch() {
  const { chromium } = fromE2e('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: [...CHROMIUM_ARGS] });
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
    const input =
      tree?.parentElement?.querySelector('input') ?? document.querySelector('input[placeholder*="ilter" i], input[aria-label*="ilter" i]');
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

/**
 * Lighthouse's mobile "Slow 4G" profile: 150 ms round trip, 1.6 Mbit/s down, 0.7 Mbit/s up (in
 * bytes per second, as the DevTools protocol takes them), the CPU four times slower.
 */
export const SLOW_4G = {
  latency: 150,
  downloadThroughput: (1.6 * 1024 * 1024) / 8,
  uploadThroughput: (0.7 * 1024 * 1024) / 8,
  cpuSlowdown: 4,
};
export const PHONE_VIEWPORT = { width: 390, height: 844 };

/**
 * One cold visit of `path` on the slow profile: a fresh browser context (empty cache), the
 * network and CPU throttled through the DevTools protocol before the navigation. Returns:
 * - `readyMs`: from the navigation's start until `readySelector` matches an element that is
 *   visible and enabled (for /login the e-mail field: the moment a visitor can type), checked
 *   inside the page on every DOM change and every frame;
 * - `keystrokeMs`: a key typed into that field the moment it is typeable (inside the page: the
 *   value changed and an input event, as a keyboard does), and the time from then until the application holds it: the
 *   field is React's (hydrated: React's props are on it, and a pre-rendered page's hand-over has
 *   run, apps/web/src/lib/hand-over.ts), shows the key, and a controlled field's value
 *   prop says so too; `keystrokeSeenMs` is that moment from the navigation's start;
 * - `lcpMs`: the last largest-contentful-paint entry once the page is settled;
 * - `bytesBeforeReady`: bytes really received (headers and encoded bodies, as Resource Timing's
 *   transferSize reports them) of the responses finished by then;
 * - `bytes`: every byte received until the network is idle (the protocol's encodedDataLength),
 *   with each response's type, size and Content-Encoding.
 */
export async function slowVisit(
  browser,
  baseUrl,
  path,
  { readySelector, storageState, locale, keystroke = false, profile = SLOW_4G, settleMs = 1500 } = {},
) {
  const context = await browser.newContext({ baseURL: baseUrl, viewport: PHONE_VIEWPORT, storageState, locale });
  try {
    await context.addInitScript(
      ({ selector, keystroke }) => {
        const w = window;
        w.__bench = { readyMs: null, lcpMs: null };
        const usable = (el) => {
          if (!el || el.disabled || el.readOnly) return false;
          const r = el.getBoundingClientRect();
          if (r.width === 0 || r.height === 0) return false;
          const s = getComputedStyle(el);
          return s.visibility !== 'hidden' && s.display !== 'none' && Number(s.opacity) > 0;
        };
        const check = () => {
          if (w.__bench.readyMs !== null) return;
          const el = document.querySelector(selector);
          if (!usable(el)) return;
          w.__bench.readyMs = performance.now();
          if (keystroke) typeKey(el);
        };
        new MutationObserver(check).observe(document, { childList: true, subtree: true, attributes: true });
        const frame = () => {
          check();
          if (w.__bench.readyMs === null) requestAnimationFrame(frame);
        };
        requestAnimationFrame(frame);
        // the key typed at first paint (typeKey, below), seen in the hydrated form
        w.__bench.keyAt = null;
        w.__bench.keySeenMs = null;
        const seen = () => {
          if (w.__bench.keyAt === null || w.__bench.keySeenMs !== null) return;
          const el = document.querySelector(selector);
          const propsKey = el && Object.keys(el).find((k) => k.startsWith('__reactProps$'));
          if (!propsKey || w.__ppHandOver?.live) return;
          const props = el[propsKey];
          const value = el.value ?? '';
          if (value.includes('k') && (props.value === undefined || props.value === value)) w.__bench.keySeenMs = performance.now();
        };
        const watchKey = () => {
          seen();
          if (w.__bench.keySeenMs === null) requestAnimationFrame(watchKey);
        };
        // a key typed the moment the field is typeable: what a keyboard sends into a focused field
        // (the value changed, an input event), typed inside the page, so that no round trip of the
        // DevTools protocol stands between the first paint and the key
        const typeKey = (el) => {
          el.focus();
          const prototype = el instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
          Object.getOwnPropertyDescriptor(prototype, 'value').set.call(el, `${el.value}k`);
          el.dispatchEvent(new InputEvent('input', { bubbles: true, data: 'k', inputType: 'insertText' }));
          w.__bench.keyAt = performance.now();
          watchKey();
        };
        new PerformanceObserver((list) => {
          const entries = list.getEntries();
          w.__bench.lcpMs = entries[entries.length - 1].startTime;
        }).observe({ type: 'largest-contentful-paint', buffered: true });
      },
      { selector: readySelector, keystroke },
    );
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: profile.latency,
      downloadThroughput: profile.downloadThroughput,
      uploadThroughput: profile.uploadThroughput,
    });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: profile.cpuSlowdown });
    const responses = new Map();
    cdp.on('Network.responseReceived', ({ requestId, type, response }) => {
      const header = Object.entries(response.headers ?? {}).find(([k]) => k.toLowerCase() === 'content-encoding');
      responses.set(requestId, {
        url: new URL(response.url).pathname,
        type,
        status: response.status,
        encoding: header?.[1] ?? 'none',
        bytes: 0,
      });
    });
    cdp.on('Network.loadingFinished', ({ requestId, encodedDataLength }) => {
      const r = responses.get(requestId);
      if (r) r.bytes = encodedDataLength;
    });
    cdp.on('Network.loadingFailed', ({ requestId, canceled }) => {
      const r = responses.get(requestId);
      if (r) r.failed = canceled ? 'canceled' : 'failed';
    });
    // the page is typeable long before it has loaded: no waiting for the load event
    await page.goto(path, { waitUntil: 'commit', timeout: 90_000 });
    await page.waitForFunction(() => window.__bench.readyMs !== null, undefined, { timeout: 60_000, polling: 'raf' });
    if (keystroke) {
      await page.waitForFunction(() => window.__bench.keySeenMs !== null, undefined, { timeout: 60_000, polling: 100 });
    }
    await page.waitForLoadState('load', { timeout: 90_000 });
    await page.waitForLoadState('networkidle', { timeout: 60_000 }).catch(() => undefined);
    await page.waitForTimeout(settleMs);
    const inPage = await page.evaluate(() => {
      const ready = window.__bench.readyMs;
      const entries = [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')];
      const before = entries.filter((e) => e.responseEnd > 0 && e.responseEnd <= ready);
      return {
        readyMs: ready,
        keystrokeMs: window.__bench.keySeenMs === null ? null : window.__bench.keySeenMs - window.__bench.keyAt,
        keystrokeSeenMs: window.__bench.keySeenMs,
        lcpMs: window.__bench.lcpMs,
        bytesBeforeReady: before.reduce((s, e) => s + e.transferSize, 0),
        filesBeforeReady: before.map((e) => new URL(e.name).pathname),
        finalPath: location.pathname,
      };
    });
    const files = [...responses.values()].filter((r) => !r.url.startsWith('data:'));
    return {
      ...inPage,
      readyMs: round(inPage.readyMs, 0),
      keystrokeMs: inPage.keystrokeMs === null ? null : round(inPage.keystrokeMs, 0),
      keystrokeSeenMs: inPage.keystrokeSeenMs === null ? null : round(inPage.keystrokeSeenMs, 0),
      lcpMs: round(inPage.lcpMs ?? NaN, 0),
      bytes: files.reduce((s, r) => s + r.bytes, 0),
      files: files.sort((a, b) => b.bytes - a.bytes),
    };
  } finally {
    await context.close();
  }
}

/** `slowVisit` `runs` times (each cold); the run with the median ready time, and every run's figures. */
export async function slowVisitMedian(browser, baseUrl, path, options, runs = 5) {
  const all = [];
  const load = [loadavg()[0]];
  for (let i = 0; i < runs; i++) all.push(await slowVisit(browser, baseUrl, path, options));
  load.push(loadavg()[0]);
  const sorted = [...all].sort((a, b) => a.readyMs - b.readyMs);
  const median = sorted[Math.floor(sorted.length / 2)];
  const kb = (n) => round(n / 1024);
  return {
    median,
    readyMs: median.readyMs,
    lcpMs: percentile(
      all.map((r) => r.lcpMs),
      50,
    ),
    kbBeforeReady: kb(median.bytesBeforeReady),
    // the keystroke's own median (its runs are not the ready time's)
    keystrokeMs: all.some((r) => r.keystrokeMs === null)
      ? null
      : percentile(
          all.map((r) => r.keystrokeMs),
          50,
        ),
    keystrokeSeenMs: all.some((r) => r.keystrokeSeenMs === null)
      ? null
      : percentile(
          all.map((r) => r.keystrokeSeenMs),
          50,
        ),
    kbTotal: kb(median.bytes),
    // the slowed CPU is this machine's CPU slowed further: a busy machine shows in these figures
    loadAverage: load.map((l) => round(l)),
    runs: all.map((r) => ({
      readyMs: r.readyMs,
      keystrokeMs: r.keystrokeMs,
      lcpMs: r.lcpMs,
      kbBeforeReady: kb(r.bytesBeforeReady),
      kbTotal: kb(r.bytes),
    })),
  };
}
