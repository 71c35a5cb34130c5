import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_LOGIN_LIMITS, startPortal, type TestPortal } from '../support/portal.js';
import { signIn } from '../support/sign-in.js';
import { createUser, type TestUser } from './support.js';

/** The user's own sessions: the list (browser, address, started, last seen, current), ending one, ending all others. */
let portal: TestPortal;
let user: TestUser;
let other: TestUser;

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:131.0) Gecko/20100101 Firefox/131.0';
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';
const SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

beforeAll(async () => {
  portal = await startPortal(NO_LOGIN_LIMITS);
  user = await createUser(portal);
  other = await createUser(portal);
});
afterAll(() => portal?.close());

describe('GET /api/identity/sessions', () => {
  it('lists the user’s live sessions with browser, address, start, last seen, and marks the current one', async () => {
    const firefox = await signIn(portal.client(), user, { userAgent: FIREFOX });
    await signIn(portal.client(), user, { userAgent: CHROME });
    await signIn(portal.client(), other, { userAgent: SAFARI });
    const res = await firefox.get('/api/identity/sessions');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const sessions = res.body.sessions as {
      id: string;
      browser: string;
      ip_address: string;
      created_at: string;
      last_seen_at: string;
      current: boolean;
      user_agent: string;
    }[];
    expect(sessions).toHaveLength(2);
    expect(sessions.map((s) => s.browser).sort()).toEqual(['Chrome (Windows)', 'Firefox (Linux)']);
    const current = sessions.filter((s) => s.current);
    expect(current).toHaveLength(1);
    expect(current[0]!.user_agent).toBe(FIREFOX);
    for (const s of sessions) {
      expect(s.ip_address).toBe('127.0.0.1');
      expect(Number.isNaN(Date.parse(s.created_at))).toBe(false);
      expect(Date.parse(s.last_seen_at)).toBeGreaterThanOrEqual(Date.parse(s.created_at));
    }
  });

  it('answers 401 without a session', async () => {
    expect((await portal.client().get('/api/identity/sessions')).status).toBe(401);
  });
});

describe('ending sessions', () => {
  it('ends one other session; the current one ends only by logging out (409)', async () => {
    const laptop = await signIn(portal.client(), user, { userAgent: FIREFOX });
    const phone = await signIn(portal.client(), user, { userAgent: SAFARI });
    const list = (await laptop.get('/api/identity/sessions')).body.sessions as { id: string; current: boolean; browser: string }[];
    const phoneSession = list.find((s) => s.browser === 'Safari (iOS)')!;
    const currentSession = list.find((s) => s.current)!;
    expect((await laptop.delete(`/api/identity/sessions/${encodeURIComponent(phoneSession.id)}`)).status).toBe(204);
    expect((await phone.get('/api/identity/user-info')).status).toBe(401);
    const self = await laptop.delete(`/api/identity/sessions/${encodeURIComponent(currentSession.id)}`);
    expect(self.status).toBe(409);
    expect(self.body.i18NTranslationKey).toBe('invalid_operation');
    expect((await laptop.get('/api/identity/user-info')).status).toBe(200);
  });

  it('cannot end another user’s session (204, nothing ends)', async () => {
    const mine = await signIn(portal.client(), user, { userAgent: FIREFOX });
    const theirs = await signIn(portal.client(), other, { userAgent: CHROME });
    const theirId = ((await theirs.get('/api/identity/sessions')).body.sessions as { id: string; current: boolean }[]).find(
      (s) => s.current,
    )!.id;
    expect((await mine.delete(`/api/identity/sessions/${encodeURIComponent(theirId)}`)).status).toBe(204);
    expect((await theirs.get('/api/identity/user-info')).status).toBe(200);
  });

  it('POST /api/identity/sessions/end-others ends every other session; this one stays', async () => {
    const keep = await signIn(portal.client(), user, { userAgent: FIREFOX });
    const others = [await signIn(portal.client(), user, { userAgent: CHROME }), await signIn(portal.client(), user, { userAgent: SAFARI })];
    const before = (await keep.get('/api/identity/sessions')).body.sessions.length as number;
    expect(before).toBeGreaterThanOrEqual(3);
    const res = await keep.post('/api/identity/sessions/end-others');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ended: before - 1 });
    for (const c of others) expect((await c.get('/api/identity/user-info')).status).toBe(401);
    const after = (await keep.get('/api/identity/sessions')).body.sessions as { current: boolean }[];
    expect(after).toHaveLength(1);
    expect(after[0]!.current).toBe(true);
    expect((await portal.client().post('/api/identity/sessions/end-others')).status).toBe(401);
  });
});
