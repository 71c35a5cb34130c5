import { mkdirSync } from 'node:fs';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { createUser, type TestPortal } from '@partner-portal/server/test-kit';
import { addVirtualAuthenticator, axeProblems, newPage, whenStill, workerBrowser } from '../support/browser.js';
import { openContext, startPortal } from '../support/portal.js';

/**
 * Passkeys only where WebAuthn can work (docs/second-factors.md, "Passkeys"): a portal served on
 * an IP address (http://127.0.0.1:PORT) offers no passkey — none in the e-mail field's suggestions,
 * no button at the second step — and shows no error on loading the login page; the same portal
 * under a domain name (localhost) offers them. The browser has a (virtual) authenticator, as a
 * phone or laptop with passkeys would.
 */
const SHOTS = '/tmp/shots-lockout/';
mkdirSync(SHOTS, { recursive: true });

let onIp: TestPortal;
let onName: TestPortal;
let browser: Browser;

beforeAll(async () => {
  [onIp, onName, browser] = await Promise.all([startPortal(), startPortal({}, { publicHost: 'localhost' }), workerBrowser()]);
});
afterAll(async () => {
  // the worker's Chromium stays for its next file (workerBrowser); this file's contexts go
  if (browser?.isConnected()) await Promise.all(browser.contexts().map((context) => context.close()));
  await onIp?.close();
  await onName?.close();
});

const USE_PASSKEY = { 'en-GB': 'Use a passkey', 'pt-BR': 'Usar uma chave de acesso' } as const;
const CODE = { 'en-GB': 'Code', 'pt-BR': 'Código' } as const;

/** A user with an authenticator app, so that the password leads to the second step. */
async function userWithApp(portal: TestPortal) {
  const user = await createUser(portal);
  const client = await portal.sessionFor(user.id);
  const started = await client.post('/api/factors/totp');
  const code = new TOTP({ secret: Secret.fromBase32(started.body.secret as string), algorithm: 'SHA1', digits: 6, period: 30 }).generate();
  expect((await client.post('/api/factors/totp/confirm', { code })).status).toBe(200);
  return user;
}

/**
 * The login page with an authenticator in the browser, recording the passkey requests the page
 * makes (navigator.credentials.get, by mediation).
 */
async function loginPage(portal: TestPortal, language: keyof typeof USE_PASSKEY): Promise<{ page: Page; problems: string[] }> {
  const context = await openContext(browser, portal, { viewport: { width: 390, height: 844 }, language });
  await context.addInitScript(() => {
    const requests: string[] = [];
    (window as unknown as { passkeyRequests: string[] }).passkeyRequests = requests;
    const get = navigator.credentials.get.bind(navigator.credentials);
    navigator.credentials.get = (options?: CredentialRequestOptions) => {
      requests.push(options?.mediation ?? 'required');
      return get(options);
    };
  });
  const { page, watch } = await newPage(context);
  page.setDefaultTimeout(15_000);
  await addVirtualAuthenticator(page);
  await page.goto('/login');
  await page.locator('input[name="email"]').waitFor();
  await page.waitForLoadState('networkidle');
  await whenStill(page);
  return { page, problems: watch.problems };
}

const passkeyRequests = (page: Page) => page.evaluate(() => (window as unknown as { passkeyRequests: string[] }).passkeyRequests);

/** Through the password to the second step (the field of the app's code). */
async function toSecondStep(page: Page, user: { email: string; password: string }, language: keyof typeof USE_PASSKEY) {
  await page.locator('input[name="email"]').fill(user.email);
  await page.locator('button[type="submit"]').click();
  await page.locator('input[name="password"]').fill(user.password);
  await page.locator('button[type="submit"]').click();
  await page.getByLabel(CODE[language]).waitFor();
  await whenStill(page);
}

describe.each(['en-GB', 'pt-BR'] as const)('the login page on an IP address (%s, 390 px)', (language) => {
  it('shows no error on load and offers no passkey', async () => {
    const user = await userWithApp(onIp);
    const { page, problems } = await loginPage(onIp, language);
    expect(new URL(page.url()).hostname).toBe('127.0.0.1');
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(await page.locator('input[name="email"]').getAttribute('autocomplete')).not.toContain('webauthn');
    expect(await passkeyRequests(page)).toEqual([]);
    expect(await axeProblems(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}login-on-ip-${language}.png`, fullPage: true });

    await toSecondStep(page, user, language);
    expect(await page.getByRole('button', { name: USE_PASSKEY[language] }).count()).toBe(0);
    expect(await page.getByRole('alert').count()).toBe(0);
    await page.screenshot({ path: `${SHOTS}login-on-ip-second-step-${language}.png`, fullPage: true });
    expect(problems).toEqual([]);
    await page.context().close();
  }, 60_000);
});

describe('the login page on a domain name (localhost)', () => {
  it('offers passkeys in the e-mail field and at the second step', async () => {
    const user = await userWithApp(onName);
    const { page, problems } = await loginPage(onName, 'en-GB');
    expect(new URL(page.url()).hostname).toBe('localhost');
    expect(await page.locator('input[name="email"]').getAttribute('autocomplete')).toContain('webauthn');
    await expect.poll(() => passkeyRequests(page)).toEqual(['conditional']);
    expect(await page.getByRole('alert').count()).toBe(0);

    await toSecondStep(page, user, 'en-GB');
    await page.getByRole('button', { name: USE_PASSKEY['en-GB'] }).waitFor();
    expect(problems).toEqual([]);
    await page.context().close();
  }, 60_000);
});
