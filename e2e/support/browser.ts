import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from './chromium.mjs';

export { CHROMIUM };

/** Debian's Chromium, driven by Playwright (no browser download). */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: [...CHROMIUM_ARGS] });
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
 * and return the serious and critical violations.
 */
export async function seriousAxeViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}
