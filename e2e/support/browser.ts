import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from './chromium.mjs';

export { CHROMIUM };

/** Debian's Chromium, driven by Playwright (no browser download). */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: [...CHROMIUM_ARGS] });
}

let workerChromium: Promise<Browser> | undefined;

/**
 * The Chromium of this vitest worker, launched by the first test file that asks for it and kept for
 * the worker's later files: the e2e project runs with `isolate: false` (vitest.config.ts), so this
 * module, and the browser in it, live as long as the worker. A launch per file cost about a second
 * of CPU on a busy machine; each file still has its own browser contexts (usePortalAndBrowser
 * closes any it left open). Playwright kills the browser when the worker's process exits; a browser
 * that crashed or was closed is launched again for the next file.
 */
export function workerBrowser(): Promise<Browser> {
  if (!workerChromium) {
    const launching = launchBrowser();
    workerChromium = launching;
    launching.then(
      (browser) =>
        browser.on('disconnected', () => {
          if (workerChromium === launching) workerChromium = undefined;
        }),
      () => {
        if (workerChromium === launching) workerChromium = undefined;
      },
    );
  }
  return workerChromium;
}

export interface PageWatch {
  /** console errors, CSP violations and uncaught exceptions seen on the page */
  problems: string[];
}

/** A new page that records console errors, CSP violations and page errors. */
export async function newPage(context: BrowserContext): Promise<{ page: Page; watch: PageWatch }> {
  const page = await context.newPage();
  const watch: PageWatch = { problems: [] };
  page.on('console', (msg) => {
    const text = msg.text();
    if (msg.type() === 'error' && !/status of (401|403|404|409|400|429)/.test(text)) watch.problems.push(`console: ${text}`);
    if (/Content Security Policy/i.test(text)) watch.problems.push(`csp: ${text}`);
  });
  page.on('pageerror', (err) => watch.problems.push(`pageerror: ${err.message}`));
  return { page, watch };
}

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/**
 * Run axe-core on the page (injected through the DevTools protocol, so the page's CSP stays on)
 * and return the serious and critical violations. axe is injected once per document: a flow that
 * checks several screens of the single-page app runs the axe already there (injecting the 0.5 MB
 * script again cost 0.6–1.4 s a check on a busy machine, more than running it).
 */
export async function seriousAxeViolations(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** Serious and critical axe violations, one readable line each ([] when there are none). */
export async function axeProblems(page: Page): Promise<string[]> {
  const violations = await seriousAxeViolations(page);
  return violations.map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/**
 * A virtual authenticator for the page, through the DevTools protocol: a platform authenticator
 * with resident keys and user verification, which answers at once (passkey tests).
 */
export async function addVirtualAuthenticator(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
}

/**
 * Resolves once nothing on the page moves: no CSS transition or finite animation running (modals
 * and menus fade and scale in), for five frames in a row, since a transition starts a frame or two
 * after its element appears. Endless animations (a loader's spin) do not count.
 */
export async function whenStill(page: Page): Promise<void> {
  await page.evaluate(async () => {
    let stillFrames = 0;
    while (stillFrames < 5) {
      await new Promise((resolve) => requestAnimationFrame(resolve));
      const moving = document
        .getAnimations()
        .some((a) => (a.playState === 'running' || a.pending) && a.effect?.getComputedTiming().iterations !== Infinity);
      stillFrames = moving ? 0 : stillFrames + 1;
    }
  });
}

/** Resolves after the next two frames have been drawn: what a click or a key press changed is on the page. */
export async function afterNextFrames(page: Page): Promise<void> {
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}
