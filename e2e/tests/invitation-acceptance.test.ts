import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { signIn, type HttpClient } from '@partner-portal/server/test-kit';
import { axeProblems, newPage, type PageWatch } from '../support/browser.js';
import { invitationLink, openContext, screenshot, signedIn, usePortalAndBrowser, VIEWPORTS } from '../support/portal.js';

/**
 * The invitation pages (docs/product.md, "Screens" and "Flows and states"): the other views (unknown invitation, logged-in visitor,
 * accepted and revoked invitations) and the external-identity invitation, which redirects to its
 * own page and, once accepted, sends the browser to the upstream login that links the account.
 */
const e2e = usePortalAndBrowser();
let adminApi: HttpClient;
let context: BrowserContext;
let page: Page;
let watch: PageWatch;
let organizationId: string;

const PASSWORD = 'Sterk-Wachtw00rd!';

async function invite(email: string, extra: Record<string, unknown> = {}): Promise<URL> {
  const res = await adminApi.post(`/api/organizations/${organizationId}/invitations`, {
    email_address: email,
    language_code: 'en',
    ...extra,
  });
  expect(res.status).toBe(201);
  return invitationLink(e2e.portal, email);
}

beforeAll(async () => {
  adminApi = await e2e.portal.sessionFor(e2e.portal.adminUserId);
  const created = await adminApi.post('/api/organizations', {
    parent_organization_id: e2e.portal.rootOrganizationId,
    name: 'Dealer Oost',
    client_ids: ['loyalty-app'],
    can_create_sub_organization: false,
  });
  expect(created.status).toBeLessThan(300);
  organizationId = created.body.id;
  context = await openContext(e2e.browser, e2e.portal);
  ({ page, watch } = await newPage(context));
  page.setDefaultTimeout(10_000);
});
afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail')
    await screenshot(page, `failure-invitation-${ctx.task.name.slice(0, 30).replace(/\W+/g, '-')}`).catch(() => undefined);
});
afterAll(async () => {
  await context?.close();
});

describe('invitation pages', () => {
  it('shows an unknown invitation for a wrong code or id', async () => {
    const link = await invite('wrong.code@example.com');
    await page.goto(`${link.pathname}?code=not-the-code`);
    await page.getByRole('heading', { level: 1, name: 'Unknown invitation' }).waitFor();
    await page.getByText('Unknown invitation (contact your administrator)').waitFor();
    expect(await axeProblems(page)).toEqual([]);
    await screenshot(page, 'invitation-unknown-1280');
    await page.goto('/invitation/00000000-0000-4000-8000-000000000000?code=x');
    await page.getByRole('heading', { level: 1, name: 'Unknown invitation' }).waitFor();
    expect(watch.problems).toEqual([]);
  });

  it('tells a logged-in visitor to log out first', async () => {
    const link = await invite('logged.in@example.com');
    const adminContext = await signedIn(e2e.browser, e2e.portal, e2e.portal.adminUserId, { viewport: 'narrow' });
    const { page: admin } = await newPage(adminContext);
    await admin.goto(link.pathname + link.search);
    await admin.getByRole('heading', { level: 1, name: 'You are logged in' }).waitFor();
    expect(await admin.getByRole('link', { name: 'Log out' }).getAttribute('href')).toBe('/logout');
    expect(await axeProblems(admin)).toEqual([]);
    await screenshot(admin, 'invitation-logged-in-768');
    await adminContext.close();
  });

  it('registers (with validation), then shows the accepted state; a revoked invitation says so', async () => {
    const email = 'piet.boer@example.com';
    const link = await invite(email);
    await page.setViewportSize(VIEWPORTS.narrow);
    await page.goto(link.pathname + link.search);
    await page.getByRole('heading', { level: 1, name: 'Welcome to the Partner Portal' }).waitFor();
    expect(await page.getByLabel('Preferred language').inputValue()).toBe('en');
    // every required field and the agreement are checked before anything is sent
    await page.getByRole('button', { name: 'Register' }).click();
    await page.getByText('First name is required').waitFor();
    await page.getByText('Last name is required').waitFor();
    await page.getByText('You must accept the privacy statement').waitFor();
    await page.locator('input[name="first_name"]').fill('Piet');
    await page.locator('input[name="last_name"]').fill('Boer');
    await page.locator('input[name="password"]').fill(PASSWORD);
    await page.locator('input[name="password_confirmation"]').fill(`${PASSWORD}x`);
    await page.locator('input[name="accept_agreement"]').check();
    await page.getByRole('button', { name: 'Register' }).click();
    await page.getByText('Passwords do not match').waitFor();
    expect(await page.getByRole('link', { name: 'end user licence agreement' }).getAttribute('target')).toBe('_blank');
    expect(await axeProblems(page)).toEqual([]);
    await screenshot(page, 'invitation-form-768');
    await page.locator('input[name="password_confirmation"]').fill(PASSWORD);
    await page.getByRole('button', { name: 'Register' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    await page.locator('.mantine-Notification-root').filter({ hasText: 'Your account has been created' }).waitFor();
    await signIn(e2e.portal.client(), { email, password: PASSWORD });

    // the link again: the invitation is no longer pending
    await page.goto(link.pathname + link.search);
    await page.getByText('Your invitation has been accepted').waitFor();
    await page.getByText('Contact the administrator of your organization').waitFor();
    expect(await axeProblems(page)).toEqual([]);

    const revokedLink = await invite('revoked@example.com');
    const id = revokedLink.pathname.split('/').pop();
    expect((await adminApi.put(`/api/invitations/${id}/revoke`)).status).toBe(204);
    await page.setViewportSize(VIEWPORTS.wide);
    await page.goto(revokedLink.pathname + revokedLink.search);
    await page.getByText('The invitation has been revoked').waitFor();
    expect(await axeProblems(page)).toEqual([]);
    await screenshot(page, 'invitation-revoked-1280');
    expect(watch.problems).toEqual([]);
  });

  it('says an expired invitation has expired, in the invitation’s language (de, pt-BR at 390 px; en-GB at 1280)', async () => {
    const cases = [
      { language: 'de', text: 'Ihre Einladung ist abgelaufen', viewport: { width: 390, height: 844 } },
      { language: 'pt-BR', text: 'Seu convite expirou', viewport: { width: 390, height: 844 } },
      { language: 'en', text: 'Your invitation has expired', viewport: VIEWPORTS.wide },
    ];
    for (const { language, text, viewport } of cases) {
      const link = await invite(`expired.${language.toLowerCase()}@example.com`, { language_code: language });
      const id = link.pathname.split('/').pop();
      await e2e.portal.services.db.query("UPDATE invitations SET expires_at = now() - interval '1 day' WHERE id = $1", [id]);
      const visitor = await openContext(e2e.browser, e2e.portal, { viewport });
      const { page: expired, watch: expiredWatch } = await newPage(visitor);
      await expired.goto(link.pathname + link.search);
      await expired.getByText(text, { exact: true }).waitFor();
      expect(await axeProblems(expired)).toEqual([]);
      await screenshot(expired, `invitation-expired-${language}-${viewport.width}`);
      expect(expiredWatch.problems).toEqual([]);
      await visitor.close();
    }
  });

  it('sends an external-identity invitation to its own page, accepts it without a password and goes to the upstream login', async () => {
    const email = 'extern@partner.example';
    const link = await invite(email, { is_external_identity_provider: true });
    expect(link.pathname).toMatch(/^\/invitation-external-identity\//);
    const id = link.pathname.split('/').pop()!;
    // the native page sends it on with the same query
    await page.goto(`/invitation/${id}${link.search}`);
    await page.waitForURL((url) => url.pathname === `/invitation-external-identity/${id}` && url.search === link.search);
    await page.getByRole('heading', { level: 1, name: 'Welcome to the Partner Portal' }).waitFor();
    const emailField = page.getByLabel('E-mail address');
    expect(await emailField.inputValue()).toBe(email);
    expect(await emailField.getAttribute('readonly')).not.toBeNull();
    expect(await page.locator('input[name="password"]').count()).toBe(0);
    await page.locator('input[name="first_name"]').fill('Eva');
    await page.locator('input[name="last_name"]').fill('Extern');
    await page.locator('input[name="accept_agreement"]').check();
    expect(await axeProblems(page)).toEqual([]);
    await screenshot(page, 'invitation-external-1280');

    // the upstream login is outside this test: record where the browser is sent
    let upstream: URL | null = null;
    await page.route('**/api/identity/challenge-external-login**', async (route) => {
      upstream = new URL(route.request().url());
      await route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>upstream</title><h1>upstream</h1>' });
    });
    await page.getByRole('button', { name: 'Register and sign in' }).click();
    await page.waitForURL((url) => url.pathname === '/api/identity/challenge-external-login');
    expect(upstream!.searchParams.get('returnUrl')).toBe('/');
    expect(upstream!.searchParams.get('invitationLogin')).toBe(id);
    const invitation = await e2e.portal.client().get(`/api/invitations/${id}${link.search}`);
    expect(invitation.body.invitation_state).toBe('ACCEPTED');
  });
});
