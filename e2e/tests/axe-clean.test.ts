import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { createOrg, createUser, type HttpClient, type Org } from '@partner-portal/server/test-kit';
import { newPage, whenStill } from '../support/browser.js';
import { invitationLink, openContext, screenshot, signedIn, usePortalAndBrowser } from '../support/portal.js';
import { webText } from '../support/texts.js';
import { grid } from '../support/grid.js';

/**
 * axe on the screens and dialogs where dealers met its failures, in Dutch and Brazilian Portuguese,
 * on a phone and a desktop: no serious or critical violation (field errors' contrast, the "set up
 * on" badge, the bulk invitation's file field, the export menu), and none of the moderate landmark
 * rules (content outside landmarks on the login pages, a banner landmark in every dialog).
 */
const e2e = usePortalAndBrowser();

/** The moderate axe rules these screens keep too. */
const MODERATE_RULES = ['region', 'landmark-no-duplicate-banner', 'landmark-unique', 'landmark-banner-is-top-level'];

const AXE_SOURCE = readFileSync(fileURLToPath(import.meta.resolve('axe-core/axe.min.js')), 'utf8');

/** Serious and critical violations and the moderate landmark ones, one line each. */
async function axeFailures(page: Page): Promise<string[]> {
  await whenStill(page);
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    type Result = { violations: { id: string; impact: string | null; nodes: { target: string[] }[] }[] };
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<Result> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.map((n) => n.target.join(' ')) }));
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical' || MODERATE_RULES.includes(v.id))
    .map((v) => `${v.id} (${v.impact}) at ${v.targets.join(', ')}`);
}

const code = (secret: string) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: Date.now() });

let adminApi: HttpClient;
let organizationId: string;
let totpUser: { id: string; email: string; password: string };

beforeAll(async () => {
  adminApi = await e2e.portal.sessionFor(e2e.portal.adminUserId);
  const { rows } = await e2e.portal.services.db.query<Org>('SELECT id, path, name FROM organizations WHERE parent_id IS NULL');
  organizationId = (await createOrg(e2e.portal, rows[0]!, 'Dealer Oost', { canCreate: true })).id;
  totpUser = await createUser(e2e.portal, { firstName: 'Tessa' });
  const client = await e2e.portal.sessionFor(totpUser.id);
  const started = await client.post('/api/factors/totp');
  expect((await client.post('/api/factors/totp/confirm', { code: code(started.body.secret) })).status).toBe(200);
});

const WIDTHS = [390, 1280];
const LANGUAGES = ['nl', 'pt-BR'];

for (const [language, width] of grid(LANGUAGES, WIDTHS)) {
  describe(`${language} at ${width} px`, () => {
    let context: BrowserContext | undefined;
    const viewport = { width, height: 900 };
    const shot = (page: Page, name: string) => screenshot(page, `axe-${name}-${language}-${width}`, { fullPage: true });
    afterAll(async () => {
      await context?.close();
    });

    it('the login steps and the forgot-password page, with their field errors', async () => {
      context = await openContext(e2e.browser, e2e.portal, { language, viewport });
      const { page } = await newPage(context);
      await page.goto('/login');
      const email = page.locator('input[name="email"]');
      await email.press('Enter');
      await page.getByText(webText(language, 'fill_all_required_fields')).waitFor();
      expect(await axeFailures(page), 'login').toEqual([]);
      await shot(page, 'login-error');

      await email.fill(totpUser.email);
      await email.press('Enter');
      const password = page.locator('input[name="password"]');
      await password.fill(totpUser.password);
      await password.press('Enter');
      const oneTime = page.locator('input[autocomplete="one-time-code"]');
      await oneTime.fill('000000');
      await oneTime.press('Enter');
      await page.getByText(webText(language, 'second_factor_code_invalid')).waitFor();
      expect(await axeFailures(page), 'second step').toEqual([]);
      await shot(page, 'second-step-error');
      await context.close();

      context = await openContext(e2e.browser, e2e.portal, { language, viewport });
      const forgot = await newPage(context);
      await forgot.page.goto('/forgot-password');
      await forgot.page.locator('input[autocomplete="email"]').press('Enter');
      await forgot.page.locator('[id$="-error"]').first().waitFor();
      expect(await axeFailures(forgot.page), 'forgot password').toEqual([]);
      await shot(forgot.page, 'forgot-password-error');
      await context.close();
      context = undefined;
    });

    it('the invitation form with its field errors', async () => {
      const address = `axe.${language.toLowerCase()}.${width}@example.com`;
      const before = e2e.portal.smtp.messages.length;
      expect(
        (await adminApi.post(`/api/organizations/${organizationId}/invitations`, { email_address: address, language_code: 'en' })).status,
      ).toBe(201);
      const link = await invitationLink(e2e.portal, address, before);
      context = await openContext(e2e.browser, e2e.portal, { language, viewport });
      const { page } = await newPage(context);
      await page.goto(`${link.pathname}${link.search}`);
      await page.locator('form button[type="submit"]').click();
      await page.locator('[id$="-error"]').first().waitFor();
      expect(await axeFailures(page), 'invitation form').toEqual([]);
      await shot(page, 'invitation-error');
      await context.close();
      context = undefined;
    });

    it('the sign-in security of the profile with an authenticator app set up', async () => {
      context = await signedIn(e2e.browser, e2e.portal, totpUser.id, { language, viewport });
      const { page } = await newPage(context);
      await page.goto('/profile');
      await page.getByText(webText(language, 'totp_enabled').split('{{')[0]!.trim()).waitFor();
      expect(await axeFailures(page), 'sign-in security').toEqual([]);
      await shot(page, 'sign-in-security');
      await context.close();
      context = undefined;
    });

    /** The manage page of the admin, signed in, in this language and width. */
    async function managePage() {
      context = await signedIn(e2e.browser, e2e.portal, e2e.portal.adminUserId, { language, viewport });
      const { page } = await newPage(context);
      page.setDefaultTimeout(10_000);
      await page.goto(`/manage-organization/${organizationId}`);
      await page.getByRole('heading', { level: 1, name: 'Dealer Oost' }).waitFor();
      return page;
    }

    /** Each dialog opened from the manage page, checked, and closed again (the invitation's with its field errors). */
    async function checkDialogs(page: Page, dialogs: [key: string, name: string][]) {
      for (const [key, name] of dialogs) {
        await page.getByRole('button', { name: webText(language, key), exact: true }).click();
        await page.getByRole('dialog').waitFor();
        if (name === 'invite') {
          await page.getByRole('dialog').locator('form button[type="submit"]').click();
          await page.getByRole('dialog').locator('[id$="-error"]').first().waitFor();
        }
        expect(await axeFailures(page), `${name} dialog`).toEqual([]);
        await shot(page, `dialog-${name}`);
        await page.keyboard.press('Escape');
        await page.getByRole('dialog').waitFor({ state: 'detached' });
      }
      await context!.close();
      context = undefined;
    }

    // the page and its dialogs in two tests: in one, its seven checks and screenshots came near
    // the minute a test may take while the CPU was busy with the other test files
    it('the manage page: the export menu and the dialogs to create and invite', async () => {
      const page = await managePage();
      expect(await axeFailures(page), 'manage page').toEqual([]);
      await page.getByRole('button', { name: webText(language, 'org_export_members') }).click();
      await page.getByRole('menu').waitFor();
      expect(await axeFailures(page), 'export menu').toEqual([]);
      await shot(page, 'export-menu');
      await page.keyboard.press('Escape');
      await checkDialogs(page, [
        ['org_create_sub_organization', 'create'],
        ['org_invite_user', 'invite'],
      ]);
    });

    it('the manage page: the dialogs to invite from a file, edit and delete', async () => {
      const page = await managePage();
      await checkDialogs(page, [
        ['adm_bulk_open', 'bulk-invite'],
        ['org_edit_organization', 'edit'],
        ['org_delete_organization', 'delete'],
      ]);
    });
  });
}
