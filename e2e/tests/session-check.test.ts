import { describe, expect, it } from 'vitest';
import type { Request } from 'playwright-core';
import { createUser } from '@partner-portal/server/test-kit';
import { loginThroughUi, open, openContext, usePortalAndBrowser } from '../support/portal.js';

/**
 * The once-a-second session check costs the server nothing: it reads the session indicator
 * cookie. An idle signed-in tab asks the server at most twice a minute; a logout in one tab
 * reloads the other at its next check (once a second), without asking the server.
 */
const e2e = usePortalAndBrowser();

describe('the session check', () => {
  it('an idle signed-in tab makes at most 2 server requests a minute', async () => {
    const user = await createUser(e2e.portal);
    const context = await openContext(e2e.browser, e2e.portal);
    // the page's clock (timers, Date) under the test's control: the idle minute passes at once
    await context.clock.install();
    const { page } = await open(context, '/login');
    await loginThroughUi(page, user.email, user.password);
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('list', { name: 'Applications' }).waitFor();
    await page.waitForLoadState('networkidle');
    const requests: string[] = [];
    const onRequest = (request: Request) => {
      if (request.url().startsWith(e2e.portal.url)) requests.push(`${request.method()} ${new URL(request.url()).pathname}`);
    };
    page.on('request', onRequest);
    // the minute really passes in the page: the session is asked for once in it (the refresh)
    const refreshed = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/identity/user-info');
    await page.clock.runFor(60_000);
    await refreshed;
    page.off('request', onRequest);
    expect(requests.length, requests.join(', ')).toBeLessThanOrEqual(2);
    // and the tab still shows the signed-in page
    expect(new URL(page.url()).pathname).toBe('/');
    await context.close();
  });

  it('logout in one tab reloads another at its next check', async () => {
    const user = await createUser(e2e.portal);
    const context = await openContext(e2e.browser, e2e.portal);
    const first = await open(context, '/login');
    await loginThroughUi(first.page, user.email, user.password);
    await first.page.waitForURL((url) => url.pathname === '/');
    const second = await open(context, '/profile');
    await second.page.getByRole('heading', { name: 'Profile' }).waitFor();

    const loggedOut = first.page.waitForResponse(
      (r) => new URL(r.url()).pathname === '/api/identity/logout' && r.request().method() === 'POST',
    );
    await first.page.goto('/logout');
    await loggedOut;
    // the check runs every second (the milliseconds depend on the machine's load, so they are not asserted here)
    await second.page.waitForURL((url) => url.pathname === '/login', { timeout: 30_000 });
    expect(new URL(second.page.url()).searchParams.get('returnPath')).toBe('/profile');
    await context.close();
  }, 60_000);
});
