import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPortal, type TestPortal } from '../support/portal.js';
import { createUser, setCookieLine } from './support.js';

/**
 * The session indicator: a cookie script may read (no secret, not the session credential) that
 * exists exactly while the session does, so the web app checks it every second without asking
 * the server. An ended, expired or removed session loses it at the next answer.
 */
let portal: TestPortal;
beforeAll(async () => (portal = await startPortal()));
afterAll(() => portal?.close());

describe('the session indicator cookie', () => {
  it('comes with the session at login, readable by script, carrying no secret', async () => {
    const user = await createUser(portal);
    const browser = portal.client();
    const res = await browser.post('/api/identity/login', { email: user.email, password: user.password });
    expect(res.status).toBe(200);
    const indicator = setCookieLine(res.headers, 'pp_signed_in')!;
    expect(indicator).toMatch(/^pp_signed_in=1;/);
    expect(indicator.toLowerCase()).not.toContain('httponly');
    expect(indicator).toContain('Path=/');
    expect(setCookieLine(res.headers, 'pp_session')!.toLowerCase()).toContain('httponly');
    // "remember me": both last as long
    const remembered = await portal.client().post('/api/identity/login', { email: user.email, password: user.password, remember: true });
    const maxAge = (line: string) => /Max-Age=(\d+)/.exec(line)?.[1];
    expect(maxAge(setCookieLine(remembered.headers, 'pp_signed_in')!)).toBe(maxAge(setCookieLine(remembered.headers, 'pp_session')!));
  });

  it('is removed at logout', async () => {
    const user = await createUser(portal);
    const browser = portal.client();
    await browser.post('/api/identity/login', { email: user.email, password: user.password });
    expect(browser.cookies.get('pp_signed_in')).toBe('1');
    const res = await browser.post('/api/identity/logout');
    expect(res.status).toBe(200);
    expect(browser.cookies.has('pp_signed_in')).toBe(false);
    expect(browser.cookies.has('pp_session')).toBe(false);
  });

  it('is removed at the next answer once the session is gone elsewhere', async () => {
    const user = await createUser(portal);
    const browser = portal.client();
    await browser.post('/api/identity/login', { email: user.email, password: user.password });
    await portal.services.sessions.endAllForUser(user.id);
    const res = await browser.get('/api/portal/configuration');
    expect(res.status).toBe(200);
    expect(browser.cookies.has('pp_signed_in')).toBe(false);
  });

  it('is given to a live session that lacks it, and not repeated while present', async () => {
    const user = await createUser(portal);
    const browser = await portal.sessionFor(user.id);
    const first = await browser.get('/api/identity/user-info');
    expect(first.status).toBe(200);
    expect(browser.cookies.get('pp_signed_in')).toBe('1');
    const second = await browser.get('/api/identity/user-info');
    expect(setCookieLine(second.headers, 'pp_signed_in')).toBeUndefined();
  });

  it('anonymous answers set nothing', async () => {
    const res = await portal.client().get('/api/identity/user-info');
    expect(res.status).toBe(401);
    expect(res.headers.getSetCookie()).toEqual([]);
  });
});
