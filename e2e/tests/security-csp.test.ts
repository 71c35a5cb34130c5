import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { hashSecret } from '@partner-portal/server/test-kit';
import { newPage, whenStill } from '../support/browser.js';
import { signedIn, usePortalAndBrowser } from '../support/portal.js';

/**
 * Content security policy in a real browser: every page of docs/product.md, "Screens", anonymous and
 * signed in, loads without a single CSP violation, under a policy without inline scripts.
 * Violations are caught twice: the `securitypolicyviolation` DOM event (installed before any
 * page script runs) and Chromium's console report.
 */
const e2e = usePortalAndBrowser();
let invitation: { id: string; code: string };

beforeAll(async () => {
  const code = randomBytes(32).toString('base64url');
  const { rows } = await e2e.portal.services.db.query<{ id: string }>(
    `INSERT INTO invitations (organization_id, email, state, code_hash, language_code, expires_at, last_sent_at)
     VALUES ($1, 'csp-invitee@example.com', 'PENDING', $2, 'en', now() + interval '7 days', now()) RETURNING id`,
    [e2e.portal.rootOrganizationId, hashSecret(code)],
  );
  invitation = { id: rows[0]!.id, code };
});

const anonymousPages = () => [
  '/login',
  '/login?returnPath=%2Fprofile',
  '/loggedIn',
  '/forgot-password',
  '/forgot-password-confirmation',
  '/request-access?email=visitor%40example.com',
  `/reset-password?userId=${e2e.portal.adminUserId}&code=not-a-valid-code`,
  `/invitation/${invitation.id}?code=${invitation.code}`,
  `/invitation-external-identity/${invitation.id}?code=${invitation.code}`,
  '/error?errorId=unknown',
  '/this/page/does/not/exist',
  '/',
  '/logout',
];

const signedInPages = () => [
  '/',
  '/profile',
  '/change-password',
  `/manage-organization/${e2e.portal.rootOrganizationId}`,
  '/forbidden',
  '/error?errorId=unknown',
  '/this/page/does/not/exist',
  `/invitation/${invitation.id}?code=${invitation.code}`,
  '/logout',
];

async function visit(context: BrowserContext, path: string): Promise<{ violations: string[]; csp: string }> {
  const { page, watch } = await newPage(context);
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (e) =>
      seen.push(`${e.violatedDirective} blocked ${e.blockedURI || 'inline'} (${e.sourceFile}:${e.lineNumber})`),
    );
  });
  const response = await page.goto(path, { waitUntil: 'load' });
  await settle(page);
  const events = await page
    .evaluate(() => (window as unknown as { __cspViolations?: string[] }).__cspViolations ?? [])
    .catch(() => [] as string[]);
  const violations = [...events, ...watch.problems.filter((p) => p.startsWith('csp:') || /Content Security Policy/i.test(p))];
  const csp = (await response?.headerValue('content-security-policy')) ?? '';
  await page.close();
  return { violations, csp };
}

/**
 * Let the single-page app render, fetch and redirect: it has rendered a route (the document's title
 * is the route's own, apps/web/src/app/page-title.tsx, no longer index.html's), the network is quiet
 * and nothing on the page moves.
 */
async function settle(page: Page): Promise<void> {
  await page.waitForFunction(() => document.title !== 'Partner Portal');
  await page.waitForLoadState('networkidle', { timeout: 3000 }).catch(() => undefined);
  await whenStill(page);
}

describe('content security policy in Chromium', () => {
  it('no page, anonymous, has a CSP violation, and the policy allows no inline script', async () => {
    const context = await e2e.browser.newContext({ baseURL: e2e.portal.url });
    try {
      const found: Record<string, string[]> = {};
      for (const path of anonymousPages()) {
        const { violations, csp } = await visit(context, path);
        expect(csp, path).toMatch(/script-src 'self'/);
        expect(/script-src([^;]*)/.exec(csp)?.[1] ?? '', path).not.toMatch(/unsafe-inline|unsafe-eval/);
        if (violations.length) found[path] = violations;
      }
      expect(found).toEqual({});
    } finally {
      await context.close();
    }
    // thirteen pages, each until it is still: longer than one screen's test
  }, 180_000);

  it('no page, signed in, has a CSP violation', async () => {
    const context = await signedIn(e2e.browser, e2e.portal, e2e.portal.adminUserId, { reducedMotion: false });
    try {
      const found: Record<string, string[]> = {};
      for (const path of signedInPages()) {
        const { violations } = await visit(context, path);
        if (violations.length) found[path] = violations;
      }
      expect(found).toEqual({});
    } finally {
      await context.close();
    }
  }, 180_000);

  it('an injected inline script is blocked and reported (the check itself works)', async () => {
    const context = await e2e.browser.newContext({ baseURL: e2e.portal.url });
    try {
      const { page } = await newPage(context);
      await page.addInitScript(() => {
        const seen: string[] = [];
        (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
        document.addEventListener('securitypolicyviolation', (e) => seen.push(e.violatedDirective));
      });
      await page.goto('/login');
      const ran = await page.evaluate(async () => {
        (window as unknown as { __inlineRan?: boolean }).__inlineRan = false;
        const s = document.createElement('script');
        s.textContent = 'window.__inlineRan = true';
        document.body.appendChild(s);
        return (window as unknown as { __inlineRan?: boolean }).__inlineRan;
      });
      expect(ran).toBe(false);
      // the report of the violation comes as an event after the script was refused
      await page.waitForFunction(() => (window as unknown as { __cspViolations: string[] }).__cspViolations.length > 0);
      const violations = await page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations);
      expect(violations.some((v) => v.startsWith('script-src'))).toBe(true);
    } finally {
      await context.close();
    }
  });
});
