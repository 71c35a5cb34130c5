import { describe, expect, it } from 'vitest';
import * as oidcClient from 'openid-client';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  createUser,
  DCR_TOKEN,
  discover,
  registerClient,
  startAuthorization,
} from '@partner-portal/server/test-kit';
import {
  checkScreen,
  loginThroughUi,
  open,
  openContext,
  useApplicationCallback,
  usePortalAndBrowser,
  type ViewportName,
} from '../support/portal.js';

/**
 * A relying-party application signs its user in through the portal: /connect/auth sends the
 * browser to /login?ReturnUrl=…, the two-step login completes the authorization, and the browser
 * arrives at the application's redirect_uri with a code that the real RP library redeems.
 */
const e2e = usePortalAndBrowser({ DCR_INITIAL_ACCESS_TOKEN: DCR_TOKEN });
const application = useApplicationCallback();

describe.each<ViewportName>(['wide', 'narrow'])('OpenID Connect login through the portal (%s)', (viewport) => {
  it('shows the client name, logs in, and returns to the application with a code', async () => {
    const client = await registerClient(e2e.portal, { client_name: 'Herd Monitor', redirect_uris: [application.redirectUri] });
    const config = await discover(e2e.portal, client.client_id as string);
    const start = await startAuthorization(config, application.redirectUri);

    const context = await openContext(e2e.browser, e2e.portal, { viewport });
    const { page, watch } = await open(context, start.url.toString());
    await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.has('ReturnUrl'));
    expect(new URL(page.url()).searchParams.get('ReturnUrl')).toMatch(/\/connect\/interaction\//);
    await page.getByRole('heading', { level: 1, name: 'Herd Monitor' }).waitFor();
    await page.getByText('Log in with your partner portal account').waitFor();
    await checkScreen(page, watch, 'login-client');

    await loginThroughUi(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    await page.waitForURL((url) => url.toString().startsWith(application.redirectUri), { timeout: 20_000 });
    const callback = new URL(page.url());
    expect(callback.searchParams.get('code')).toBeTruthy();
    expect(callback.searchParams.get('state')).toBe(start.state);

    const tokens = await oidcClient.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: start.codeVerifier,
      expectedState: start.state,
      expectedNonce: start.nonce,
    });
    expect(tokens.claims()?.email).toBe(ADMIN_EMAIL);
    await context.close();
  });
});

describe('error page', () => {
  it('shows a failed authorization with its request id and the way home', async () => {
    const context = await openContext(e2e.browser, e2e.portal);
    // an unknown client: the provider renders its error through /error?errorId=
    const { page, watch } = await open(
      context,
      `/connect/authorize?client_id=no-such-client&response_type=code&scope=openid&redirect_uri=${encodeURIComponent(application.redirectUri)}`,
    );
    await page.waitForURL((url) => url.pathname === '/error' && url.searchParams.has('errorId'));
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Back to homepage' }).waitFor();
    await checkScreen(page, watch, 'error');
    await context.close();
  });

  it('names unauthorized_client as Unauthorized, with the description and request id', async () => {
    const payload = {
      error: 'unauthorized_client',
      error_description: 'This application may not ask for this.',
      request_id: 'req-4711',
      client_id: 'herd-monitor',
      redirect_uri: null,
      response_mode: null,
      ui_locales: null,
      display_mode: null,
    };
    await e2e.portal.services.db.query(
      "INSERT INTO oidc_payloads (model, id, payload, expires_at) VALUES ('PortalError', 'e2e-error-1', $1::jsonb, now() + interval '1 hour')",
      [JSON.stringify(payload)],
    );
    const context = await openContext(e2e.browser, e2e.portal, { viewport: 'narrow' });
    const { page, watch } = await open(context, '/error?errorId=e2e-error-1');
    await page.getByRole('heading', { level: 1, name: 'Unauthorized' }).waitFor();
    await page.getByText('This application may not ask for this.').waitFor();
    await page.getByText('req-4711').waitFor();
    await checkScreen(page, watch, 'error-unauthorized');
    // an unknown error id still gives a page titled Error
    const unknown = await open(context, '/error?errorId=unknown-id');
    await unknown.page.getByRole('heading', { level: 1, name: 'Error' }).waitFor();
    await context.close();
  });

  it('a second user logs in through the application too (Dutch interface follows the user)', async () => {
    const user = await createUser(e2e.portal, { language: 'nl' });
    const client = await registerClient(e2e.portal, { client_name: 'Tag Service', redirect_uris: [application.redirectUri] });
    const config = await discover(e2e.portal, client.client_id as string);
    const start = await startAuthorization(config, application.redirectUri);
    const context = await openContext(e2e.browser, e2e.portal, { viewport: 'narrow' });
    const { page } = await open(context, start.url.toString());
    await page.getByRole('heading', { level: 1, name: 'Tag Service' }).waitFor();
    await loginThroughUi(page, user.email, user.password);
    await page.waitForURL((url) => url.toString().startsWith(application.redirectUri), { timeout: 20_000 });
    expect(new URL(page.url()).searchParams.get('code')).toBeTruthy();
    await context.close();
  });
});
