import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPortal, type TestPortal } from '../support/portal.js';
import { createUser } from './support.js';

/**
 * What a password login costs besides its hash (docs/performance.md, "Password logins"): the SQL
 * statements of the two steps, counted at the portal's database object.
 */
let portal: TestPortal;

beforeAll(async () => {
  portal = await startPortal();
});
afterAll(async () => {
  await portal?.close();
});

async function statementsOf(fn: () => Promise<unknown>): Promise<string[]> {
  const db = portal.services.db;
  const original = db.query.bind(db);
  const seen: string[] = [];
  db.query = (text: string, params?: readonly unknown[]) => {
    seen.push(text.replace(/\s+/g, ' ').trim().slice(0, 100));
    return original(text, params);
  };
  try {
    await fn();
  } finally {
    db.query = original;
  }
  return seen;
}

describe('a password login', () => {
  it('runs at most 6 statements over its two steps, from a new browser', async () => {
    const user = await createUser(portal);
    const client = portal.client();
    const statements = await statementsOf(async () => {
      expect((await client.post('/api/identity/email-login', { email: user.email })).status).toBe(200);
      expect((await client.post('/api/identity/login', { email: user.email, password: user.password })).status).toBe(200);
    });
    expect(client.cookies.get('pp_session')).toBeTruthy();
    // not the login's: the general request limit's batched flush (every 250 ms, one statement for
    // all requests of the interval, http/rate-limit.ts) and the counters' sweep (once a minute)
    const background = /^(INSERT INTO rate_limits \(key, hits, reset_at\) VALUES|DELETE FROM rate_limits WHERE reset_at < now\(\))/;
    const own = statements.filter((s) => !background.test(s));
    expect(own.length, own.join('\n')).toBeLessThanOrEqual(6);
  });

  it('writes no device row for a browser whose device cookie is known and young; renews one past half its life', async () => {
    const user = await createUser(portal);
    const client = portal.client();
    const signIn = () =>
      statementsOf(async () => {
        expect((await client.post('/api/identity/login', { email: user.email, password: user.password })).status).toBe(200);
      });
    const deviceWrites = (statements: string[]) => statements.filter((s) => s.startsWith('INSERT INTO device_cookies')).length;
    expect(deviceWrites(await signIn())).toBe(1); // a new browser
    expect(client.cookies.get('pp_device')).toBeTruthy();
    expect(deviceWrites(await signIn())).toBe(0); // known, its row young
    await portal.services.db.query(`UPDATE device_cookies SET expires_at = now() + make_interval(secs => $2 / 3) WHERE user_id = $1`, [
      user.id,
      portal.config.DEVICE_COOKIE_TTL_SECONDS,
    ]);
    expect(deviceWrites(await signIn())).toBe(1); // past half its life: renewed
    const { rows } = await portal.services.db.query<{ left: number }>(
      `SELECT extract(epoch FROM expires_at - now())::float8 AS left FROM device_cookies WHERE user_id = $1`,
      [user.id],
    );
    expect(rows[0]!.left).toBeGreaterThan(portal.config.DEVICE_COOKIE_TTL_SECONDS * 0.9);
  });
});
