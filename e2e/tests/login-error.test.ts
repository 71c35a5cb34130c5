import { describe, expect, it } from 'vitest';
import { postgresAdapter } from '@partner-portal/server/test-kit';
import { newPage } from '../support/browser.js';
import { usePortalAndBrowser } from '../support/portal.js';

/**
 * The login page's error (/login?loginError=…) shows only the portal's own translated message,
 * chosen by the error code (docs/security.md): even a stored record carrying someone else's text
 * (as records made before the fix did) shows none of it.
 */
const e2e = usePortalAndBrowser();

describe('the login page’s error', () => {
  it('is the portal’s message for the error code, never the stored text', async () => {
    const errors = new (postgresAdapter(e2e.portal.services.db))('PortalError');
    const record = { request_id: null, client_id: null, redirect_uri: null, response_mode: null, ui_locales: null, display_mode: null };
    const phishing = 'Call +31 555 0100 or visit https://evil.example/unlock';
    await errors.upsert('attacker-text', { ...record, error: 'account_locked', error_description: phishing } as never, 600);
    await errors.upsert('expired', { ...record, error: 'interaction_expired', error_description: phishing } as never, 600);
    const context = await e2e.browser.newContext({ baseURL: e2e.portal.url });
    const { page, watch } = await newPage(context);
    page.setDefaultTimeout(10_000);
    for (const [id, message] of [
      ['attacker-text', 'The external login failed'],
      ['expired', 'The login request has expired. Please start again'],
    ] as const) {
      await page.goto(`/login?loginError=${id}`);
      const alert = page.getByRole('alert').filter({ hasText: 'Login failed' });
      await alert.getByText(message).waitFor();
      expect(await page.locator('body').innerText()).not.toContain('evil.example');
    }
    expect(watch.problems).toEqual([]);
    await context.close();
  });
});
