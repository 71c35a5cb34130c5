import { describe, expect, it } from 'vitest';
import * as oidcClient from 'openid-client';
import { createUser, DCR_TOKEN, discover, registerClient } from '@partner-portal/server/test-kit';
import { checkScreen, open, openContext, usePortalAndBrowser } from '../support/portal.js';

/**
 * Device sign-in (RFC 8628) as a person does it, in German at 390 px: a headless "device"
 * (openid-client 6) asks for codes and polls; the person opens the verification page /device with
 * the code, signs in first (the page needs it), sees which application asks, and allows it; the
 * device's poll gets tokens that name the person.
 */
const e2e = usePortalAndBrowser({ DCR_INITIAL_ACCESS_TOKEN: DCR_TOKEN });

describe('device sign-in at 390 px, in German', () => {
  it('signs in at /device, enters the code, allows: the device gets tokens', async () => {
    const user = await createUser(e2e.portal, { firstName: 'Greta', language: 'de' });
    const client = await registerClient(e2e.portal, {
      client_name: 'Stall-Monitor',
      grant_types: ['urn:ietf:params:oauth:grant-type:device_code'],
      response_types: [],
      redirect_uris: undefined,
      post_logout_redirect_uris: undefined,
    });
    const config = await discover(e2e.portal, client.client_id as string);
    const device = await oidcClient.initiateDeviceAuthorization(config, { scope: 'openid email' });
    expect(device.verification_uri).toBe(`${e2e.portal.url}/device`);
    // the device polls from the start, every second, until the person has decided
    const polling = oidcClient.pollDeviceAuthorizationGrant(config, { ...device, interval: 1 });

    const context = await openContext(e2e.browser, e2e.portal, { viewport: { width: 390, height: 844 }, language: 'de' });
    const { page, watch } = await open(context, '/device');
    // not signed in: the login page first, which comes back here
    await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('returnPath') === '/device');
    await page.getByLabel('E-Mail-Adresse').fill(user.email);
    await page.getByRole('button', { name: 'Weiter' }).click();
    const password = page.locator('input[name="password"]');
    await password.waitFor();
    await password.fill(user.password);
    await page.getByRole('button', { name: 'Anmelden' }).click();
    await page.waitForURL((url) => url.pathname === '/device');

    await page.getByRole('heading', { level: 1, name: 'Auf einem Gerät anmelden' }).waitFor();
    await checkScreen(page, watch, 'device-code-de');
    await page.getByLabel('Code von Ihrem Gerät').fill(device.user_code.toLowerCase());
    await page.getByRole('button', { name: 'Weiter' }).click();

    await page.getByRole('heading', { level: 1, name: 'Stall-Monitor die Anmeldung erlauben?' }).waitFor();
    expect(await page.getByTestId('device-user-code').textContent()).toBe(device.user_code);
    await checkScreen(page, watch, 'device-confirm-de');
    await page.getByRole('button', { name: 'Erlauben' }).click();

    await page.waitForURL((url) => url.pathname === '/device' && url.searchParams.get('result') === 'allowed');
    await page.getByRole('heading', { level: 1, name: 'Ihr Gerät ist angemeldet' }).waitFor();

    const tokens = await polling;
    expect(tokens.claims()?.sub).toBe(user.id);
    expect(tokens.claims()?.email).toBe(user.email);
    await context.close();
  });
});
