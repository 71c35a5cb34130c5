import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPortal, type TestPortal } from '../support/portal.js';
import { createUser } from './support.js';

/**
 * Throttling of failed password checks, forgot and reset password: per account and per client
 * address, 429 with Retry-After, counted in the shared store (PostgreSQL here), so every instance
 * sees the same counts. The e-mail step and successful logins never count.
 */
let portal: TestPortal;

beforeAll(
  async () =>
    (portal = await startPortal({
      LOGIN_RATE_LIMIT_PER_ACCOUNT: '3',
      LOGIN_RATE_LIMIT_PER_IP: '12',
      LOGIN_RATE_LIMIT_WINDOW_SECONDS: '600',
    })),
);
afterAll(() => portal?.close());

function expect429(res: { status: number; headers: Headers; body: any }) {
  expect(res.status).toBe(429);
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(res.body.i18NTranslationKey).toBe('too_many_requests');
}

describe('throttling', () => {
  it('login: per account, even with the right password after the limit', async () => {
    const user = await createUser(portal);
    for (let i = 0; i < 3; i++) {
      expect((await portal.client().post('/api/identity/login', { email: user.email, password: 'Wrong-Passw0rd!' })).status).toBe(400);
    }
    expect429(await portal.client().post('/api/identity/login', { email: user.email, password: user.password }));
    // unknown e-mails are counted the same way (no enumeration through the limit)
    for (let i = 0; i < 3; i++) await portal.client().post('/api/identity/login', { email: 'ghost@example.com', password: 'x' });
    expect429(await portal.client().post('/api/identity/login', { email: 'ghost@example.com', password: 'x' }));
  });

  it('e-mail login never counts: twenty e-mail steps, then the right password signs in', async () => {
    const user = await createUser(portal);
    for (let i = 0; i < 20; i++) expect((await portal.client().post('/api/identity/email-login', { email: user.email })).status).toBe(200);
    expect((await portal.client().post('/api/identity/login', { email: user.email, password: user.password })).status).toBe(200);
  });

  it('successful logins never count: five in a row with a limit of three', async () => {
    const user = await createUser(portal);
    for (let i = 0; i < 5; i++) {
      expect((await portal.client().post('/api/identity/login', { email: user.email, password: user.password })).status).toBe(200);
    }
    // and a wrong password after them is the first failure, not the sixth attempt
    expect((await portal.client().post('/api/identity/login', { email: user.email, password: 'Wrong-Passw0rd!' })).status).toBe(400);
  });

  it('forgot password and reset password: per account', async () => {
    const user = await createUser(portal);
    for (let i = 0; i < 3; i++)
      expect((await portal.client().post('/api/identity/forgot-password', { email_address: user.email })).status).toBe(204);
    expect429(await portal.client().post('/api/identity/forgot-password', { email_address: user.email }));

    const body = { user_id: user.id, token: 'wrong', password: 'Fresh-Meadow-42', confirm_password: 'Fresh-Meadow-42' };
    for (let i = 0; i < 3; i++) expect((await portal.client().put('/api/identity/reset-password', body)).status).toBe(409);
    expect429(await portal.client().put('/api/identity/reset-password', body));
  });

  it('login: per client address across accounts', async () => {
    const fresh = await startPortal({ LOGIN_RATE_LIMIT_PER_ACCOUNT: '100', LOGIN_RATE_LIMIT_PER_IP: '5' });
    try {
      for (let i = 0; i < 5; i++) {
        expect((await fresh.client().post('/api/identity/login', { email: `someone-${i}@example.com`, password: 'x' })).status).toBe(400);
      }
      const res = await fresh.client().post('/api/identity/login', { email: 'someone-else@example.com', password: 'x' });
      expect(res.status).toBe(429);
      expect(res.headers.get('retry-after')).toBeTruthy();
    } finally {
      await fresh.close();
    }
  }, 120_000);
});
