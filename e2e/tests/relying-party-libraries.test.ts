import { readFileSync } from 'node:fs';
import { createServer, type RequestListener, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import express from 'express';
import { auth, requiresAuth } from 'express-openid-connect';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { ADMIN_EMAIL, ADMIN_PASSWORD, DCR_TOKEN, discover, registerClient, startAuthorization } from '@partner-portal/server/test-kit';
import type { PageWatch } from '../support/browser.js';
import { loginThroughUi, open, openContext, usePortalAndBrowser } from '../support/portal.js';

/**
 * Third-party relying-party libraries, unmodified, against the portal in Chromium, each an
 * application on an http:// loopback address (http://localhost:<port>) as a developer runs it,
 * with the portal in production mode (its pages allow form targets on https only, except where a
 * client's registered address is the target: docs/api.md, "OpenID Connect in browsers"):
 * - express-openid-connect (a confidential server-side client): sign-in through the portal's login
 *   page, user info, refresh, and RP-initiated logout back to the application;
 * - oidc-client-ts in a page of the application (a public client; its token and userinfo calls are
 *   CORS calls from the application's origin): signinRedirect and signinCallback, refresh through
 *   signinSilent, a token and a userinfo call with `credentials: 'include'` as keycloak-js makes
 *   them, and signoutRedirect back to the application;
 * - a response_mode=form_post answer posting the code to the application.
 * openid-client is the relying party of apps/server/test/oidc/ and e2e/tests/account-oidc.test.ts.
 */
const e2e = usePortalAndBrowser({ DCR_INITIAL_ACCESS_TOKEN: DCR_TOKEN, NODE_ENV: 'production' });

/** An application server on a free loopback port, reached as http://localhost:<port>. */
async function listen(handler: RequestListener): Promise<{ server: Server; base: string }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return { server, base: `http://localhost:${typeof address === 'object' && address ? address.port : 0}` };
}

function close(server: Server | undefined): Promise<void> {
  return new Promise((resolve) => (server ? server.close(() => resolve()) : resolve()));
}

/** Waits for the browser to be back on the application (or says where it stopped). */
async function backAt(page: Page, base: string, path: string): Promise<void> {
  await page
    .waitForURL((url) => url.origin === base && url.pathname === path, { timeout: 30_000 })
    .catch((error: unknown) => {
      throw new Error(`the browser did not get back to ${base}${path}: it stopped at ${page.url()}`, { cause: error });
    });
}

/** The CSP violations the page reported on its way (a blocked form target among them). */
function cspViolations(watch: PageWatch): string[] {
  return watch.problems.filter((p) => p.startsWith('csp:'));
}

async function portalSessionCookie(context: BrowserContext): Promise<string | undefined> {
  return (await context.cookies(e2e.portal.url)).find((c) => c.name === 'pp_session')?.value;
}

describe('express-openid-connect (a server-side application on http://localhost)', () => {
  let server: Server | undefined;
  let base = '';

  beforeAll(async () => {
    const app = express();
    const listening = await listen(app);
    server = listening.server;
    base = listening.base;
    const client = await registerClient(e2e.portal, {
      client_name: 'Herd Dashboard',
      application_type: 'web',
      token_endpoint_auth_method: 'client_secret_basic',
      redirect_uris: [`${base}/callback`],
      // the library returns to its baseURL after the logout
      post_logout_redirect_uris: [base, `${base}/`],
    });
    app.use(
      auth({
        issuerBaseURL: e2e.portal.url,
        baseURL: base,
        clientID: client.client_id as string,
        clientSecret: client.client_secret as string,
        secret: 'a-session-secret-of-the-test-application-0123456789',
        authRequired: false,
        idpLogout: true,
        authorizationParams: { response_type: 'code', scope: 'openid profile email' },
      }),
    );
    app.get('/', (req, res) => {
      const who = req.oidc.isAuthenticated() ? `Signed in as ${String(req.oidc.user?.email)}` : 'Signed out';
      res.type('html').send(`<!doctype html><title>Herd Dashboard</title><h1>${who}</h1>`);
    });
    app.get('/profile', requiresAuth(), async (req, res) => {
      res.json(await req.oidc.fetchUserInfo());
    });
    app.get('/refresh', requiresAuth(), async (req, res) => {
      const before = req.oidc.accessToken!;
      const after = await before.refresh();
      res.json({ before: before.access_token, after: after.access_token, hasRefreshToken: Boolean(req.oidc.refreshToken) });
    });
  });
  afterAll(() => close(server));

  it('signs in through the portal, reads user info, refreshes, and logs out back to the application', async () => {
    const context = await openContext(e2e.browser, e2e.portal);
    const { page, watch } = await open(context, `${base}/login`);
    await page.waitForURL((url) => url.origin === e2e.portal.url && url.pathname === '/login');
    await page.getByRole('heading', { level: 1, name: 'Herd Dashboard' }).waitFor();
    await loginThroughUi(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    await backAt(page, base, '/');
    await page.getByRole('heading', { name: `Signed in as ${ADMIN_EMAIL}` }).waitFor();

    const json = async (path: string) => {
      await page.goto(`${base}${path}`);
      return JSON.parse(await page.locator('body').innerText()) as Record<string, unknown>;
    };
    const profile = await json('/profile');
    expect(profile).toMatchObject({ email: ADMIN_EMAIL, email_verified: true });

    const refreshed = await json('/refresh');
    expect(refreshed.hasRefreshToken).toBe(true);
    expect(refreshed.after).toEqual(expect.any(String));
    expect(refreshed.after).not.toBe(refreshed.before);
    // the refreshed access token reads the user info too
    expect(await json('/profile')).toMatchObject({ email: ADMIN_EMAIL });

    expect(await portalSessionCookie(context)).toBeTruthy();
    // RP-initiated logout: end_session, the portal's /logout page, its confirmation, the application
    await page.goto(`${base}/logout`);
    await backAt(page, base, '/');
    await page.getByRole('heading', { name: 'Signed out' }).waitFor();
    expect(await portalSessionCookie(context)).toBeUndefined();
    expect(cspViolations(watch)).toEqual([]);
    await context.close();
  });
});

/** The page of the oidc-client-ts application: the library's browser build, and its UserManager as `window.userManager`. */
const SPA_PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>Milk Planner</title>
<script src="/oidc-client-ts.js"></script><script src="/config.js"></script><script src="/app.js"></script>
</head><body><h1>Milk Planner</h1></body></html>`;

const SPA_SCRIPT = `
window.userManager = new oidc.UserManager({
  authority: window.PORTAL,
  client_id: window.CLIENT_ID,
  redirect_uri: location.origin + '/callback',
  post_logout_redirect_uri: location.origin + '/',
  response_type: 'code',
  scope: 'openid profile email',
  loadUserInfo: true,
});
window.signedIn = location.pathname === '/callback'
  ? window.userManager.signinCallback().then(
      (user) => ({ email: user.profile.email, accessToken: user.access_token, refreshToken: user.refresh_token }),
      (error) => ({ error: String(error) }),
    )
  : null;
`;

interface SpaUser {
  email?: string;
  accessToken: string;
  refreshToken?: string;
  error?: string;
}

describe('oidc-client-ts (a browser application on http://localhost)', () => {
  let server: Server | undefined;
  let base = '';
  let clientId = '';

  beforeAll(async () => {
    const require = createRequire(import.meta.url);
    const library = readFileSync(join(dirname(require.resolve('oidc-client-ts/package.json')), 'dist/browser/oidc-client-ts.min.js'));
    const files: Record<string, () => [string, string | Buffer]> = {
      '/oidc-client-ts.js': () => ['text/javascript', library],
      '/app.js': () => ['text/javascript', SPA_SCRIPT],
      '/config.js': () => [
        'text/javascript',
        `window.PORTAL = ${JSON.stringify(e2e.portal.url)}; window.CLIENT_ID = ${JSON.stringify(clientId)};`,
      ],
      '/': () => ['text/html', SPA_PAGE],
      '/callback': () => ['text/html', SPA_PAGE],
    };
    const listening = await listen((req, res) => {
      const file = files[new URL(req.url ?? '/', 'http://localhost').pathname];
      if (!file) return void res.writeHead(404).end();
      const [type, body] = file();
      res.writeHead(200, { 'content-type': `${type}; charset=utf-8`, 'cache-control': 'no-store' }).end(body);
    });
    server = listening.server;
    base = listening.base;
    const client = await registerClient(e2e.portal, {
      client_name: 'Milk Planner',
      application_type: 'web',
      token_endpoint_auth_method: 'none',
      redirect_uris: [`${base}/callback`],
      post_logout_redirect_uris: [`${base}/`],
    });
    clientId = client.client_id as string;
  });
  afterAll(() => close(server));

  it('signs in, refreshes, answers credentialed calls as keycloak-js makes them, and signs out back to the application', async () => {
    const context = await openContext(e2e.browser, e2e.portal);
    const { page, watch } = await open(context, `${base}/`);
    // the library navigates away: its promise is not awaited (the page is gone before it settles)
    await page.evaluate(() => {
      void (window as unknown as { userManager: { signinRedirect(): Promise<void> } }).userManager.signinRedirect();
    });
    await page.waitForURL((url) => url.origin === e2e.portal.url && url.pathname === '/login');
    await page.getByRole('heading', { level: 1, name: 'Milk Planner' }).waitFor();
    await loginThroughUi(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    await backAt(page, base, '/callback');
    // signinCallback: the code redeemed by a CORS call to the token endpoint, the user info by one to userinfo
    const user = await page.evaluate(() => (window as unknown as { signedIn: Promise<SpaUser> }).signedIn);
    expect(user.error).toBeUndefined();
    expect(user.email).toBe(ADMIN_EMAIL);
    expect(user.refreshToken).toBeTruthy();

    // signinSilent with a refresh token: the refresh_token grant, a CORS call from the application
    const renewed = await page.evaluate(async () => {
      const manager = (
        window as unknown as { userManager: { signinSilent(): Promise<{ access_token: string; refresh_token?: string } | null> } }
      ).userManager;
      const next = await manager.signinSilent();
      return { accessToken: next?.access_token, refreshToken: next?.refresh_token };
    });
    expect(renewed.accessToken).toBeTruthy();
    expect(renewed.accessToken).not.toBe(user.accessToken);
    expect(renewed.refreshToken).not.toBe(user.refreshToken);

    // keycloak-js sends its token and userinfo calls with credentials: 'include'
    const discovery = (await (await fetch(`${e2e.portal.url}/.well-known/openid-configuration`)).json()) as Record<string, string>;
    const credentialed = await page.evaluate(
      async ({ tokenEndpoint, userinfoEndpoint, clientId, refreshToken }) => {
        try {
          const token = await fetch(tokenEndpoint, {
            method: 'POST',
            credentials: 'include',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: clientId }),
          });
          const tokens = (await token.json()) as { access_token: string };
          const info = await fetch(userinfoEndpoint, {
            credentials: 'include',
            headers: { authorization: `Bearer ${tokens.access_token}` },
          });
          return { token: token.status, userinfo: info.status, email: ((await info.json()) as { email: string }).email };
        } catch (error) {
          return { error: String(error) };
        }
      },
      {
        tokenEndpoint: discovery.token_endpoint!,
        userinfoEndpoint: discovery.userinfo_endpoint!,
        clientId,
        refreshToken: renewed.refreshToken!,
      },
    );
    expect(credentialed).toEqual({ token: 200, userinfo: 200, email: ADMIN_EMAIL });

    expect(await portalSessionCookie(context)).toBeTruthy();
    // signoutRedirect: end_session with the ID token, the portal's /logout page, its confirmation, the application
    await page.evaluate(() => {
      void (window as unknown as { userManager: { signoutRedirect(): Promise<void> } }).userManager.signoutRedirect();
    });
    await backAt(page, base, '/');
    expect(await portalSessionCookie(context)).toBeUndefined();
    expect(cspViolations(watch)).toEqual([]);
    await context.close();
  });
});

describe('response_mode=form_post to an application on http://localhost', () => {
  let server: Server | undefined;
  let base = '';
  const received: Record<string, string>[] = [];

  beforeAll(async () => {
    const listening = await listen((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        if (req.method === 'POST') received.push(Object.fromEntries(new URLSearchParams(body)));
        res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Tag Service</title><h1>Code received</h1>');
      });
    });
    server = listening.server;
    base = listening.base;
  });
  afterAll(() => close(server));

  it('the provider’s form posts the code to the application', async () => {
    const redirectUri = `${base}/callback`;
    const client = await registerClient(e2e.portal, { client_name: 'Tag Service', application_type: 'web', redirect_uris: [redirectUri] });
    const config = await discover(e2e.portal, client.client_id as string);
    const start = await startAuthorization(config, redirectUri, { response_mode: 'form_post' });
    const context = await openContext(e2e.browser, e2e.portal);
    const { page, watch } = await open(context, start.url.toString());
    await page.getByRole('heading', { level: 1, name: 'Tag Service' }).waitFor();
    await loginThroughUi(page, ADMIN_EMAIL, ADMIN_PASSWORD);
    await backAt(page, base, '/callback');
    await page.getByRole('heading', { name: 'Code received' }).waitFor();
    expect(received).toEqual([expect.objectContaining({ code: expect.any(String), state: start.state })]);
    expect(cspViolations(watch)).toEqual([]);
    await context.close();
  });
});
