import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPortal, type TestPortal } from '../support/portal.js';
import { login } from '../support/sign-in.js';
import { createUser } from './support.js';

/**
 * Nobody can lock the owner out (docs/security.md, "Limits and thresholds"), with the default
 * limits: a thousand wrong passwords for an address, from other addresses and other browsers, in
 * two spellings of the address that the account lookup treats as one ('İ' is 'i' to PostgreSQL's
 * lower(), not to JavaScript's toLowerCase()). The owner's browser, which signed in before and
 * carries a device cookie, signs in at once afterwards; an unknown browser is still refused, even
 * with the right password. Addresses come from X-Forwarded-For (TRUST_PROXY on).
 */
let portal: TestPortal;

beforeAll(async () => (portal = await startPortal({ TRUST_PROXY: 'true' })));
afterAll(() => portal?.close());

const WRONG = 'Wrong-Passw0rd!';

describe('lockout', () => {
  it('1,000 wrong passwords from elsewhere: the known browser signs in at once, an unknown one is refused; İ shares the lock', async () => {
    const suffix = randomBytes(4).toString('hex');
    const user = await createUser(portal, { email: `ilse.${suffix}@example.com` });
    const dotted = `İlse.${suffix}@example.com`;
    // the account lookup finds the account under both spellings
    const found = await portal.services.db.query<{ n: number }>('SELECT count(*)::int AS n FROM users WHERE lower(email) = lower($1)', [
      dotted,
    ]);
    expect(found.rows[0]!.n).toBe(1);
    expect(dotted.toLowerCase()).not.toBe(user.email);

    // the owner signed in before in this browser: it carries a device cookie
    const owner = portal.client();
    expect((await login(owner, { email: user.email, password: user.password }, { address: '198.51.100.10' })).status).toBe(200);
    expect(owner.cookies.get('pp_device')).toMatch(/^[\w-]{43}$/);
    expect((await owner.post('/api/identity/logout')).status).toBe(200);

    // 1,000 guesses, each from another address and a new browser, ten at a time; some with a made-up device cookie
    const statuses = new Map<number, number>();
    for (let batch = 0; batch < 100; batch++) {
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, j) => {
          const i = batch * 10 + j;
          const attacker = portal.client();
          if (i % 3 === 0) attacker.cookies.set('pp_device', randomBytes(32).toString('base64url'));
          return login(attacker, { email: i % 2 ? dotted : user.email, password: WRONG }, { address: `10.${(i >> 8) & 255}.${i & 255}.7` });
        }),
      );
      for (const r of results) statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
    }
    // at most ten guesses were checked; every other attempt was refused unchecked
    expect(statuses.get(400)).toBe(10);
    expect(statuses.get(429)).toBe(990);

    // the owner's known browser signs in at once, from its usual address or another one
    const back = await login(owner, { email: user.email, password: user.password }, { address: '198.51.100.10' });
    expect(back.status).toBe(200);
    expect((await owner.get('/api/identity/user-info')).body.email).toBe(user.email);

    // an unknown browser is refused even with the right password, in either spelling
    for (const email of [user.email, dotted]) {
      const refused = await login(portal.client(), { email, password: user.password }, { address: '203.0.113.99' });
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(refused.headers.getSetCookie().some((c) => c.startsWith('pp_session='))).toBe(false);
    }
  }, 180_000);

  it('the known browser has its own limit: its own wrong passwords lock it, and only it', async () => {
    const user = await createUser(portal);
    const owner = portal.client();
    expect((await login(owner, { email: user.email, password: user.password }, { address: '198.51.100.20' })).status).toBe(200);
    const limit = portal.config.LOGIN_RATE_LIMIT_PER_DEVICE;
    for (let i = 0; i < limit; i++)
      expect((await login(owner, { email: user.email, password: WRONG }, { address: '198.51.100.20' })).status).toBe(400);
    expect((await login(owner, { email: user.email, password: user.password }, { address: '198.51.100.20' })).status).toBe(429);
    // the account itself is not locked for another browser: the known browser's failures are its own
    expect((await login(portal.client(), { email: user.email, password: user.password }, { address: '198.51.100.21' })).status).toBe(200);
  }, 60_000);

  it('a success gives back its guess: ten wrong and then the right password in a new browser, per account', async () => {
    const user = await createUser(portal);
    const limit = portal.config.LOGIN_RATE_LIMIT_PER_ACCOUNT;
    for (let i = 0; i < limit - 1; i++)
      expect((await login(portal.client(), { email: user.email, password: WRONG }, { address: `192.0.2.${i + 1}` })).status).toBe(400);
    // the owner, on a new browser, signs in with the one guess left; that does not use it up
    expect((await login(portal.client(), { email: user.email, password: user.password }, { address: '192.0.2.200' })).status).toBe(200);
    expect((await login(portal.client(), { email: user.email, password: user.password }, { address: '192.0.2.201' })).status).toBe(200);
    expect((await login(portal.client(), { email: user.email, password: WRONG }, { address: '192.0.2.202' })).status).toBe(400);
    expect((await login(portal.client(), { email: user.email, password: user.password }, { address: '192.0.2.203' })).status).toBe(429);
  }, 60_000);
});
