import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPortal, type TestPortal } from '../support/portal.js';
import { login } from '../support/sign-in.js';
import { enrolTotp } from '../factors/support.js';
import { createUser } from './support.js';

/**
 * What a password login costs besides its hash (docs/performance.md, "Password logins"): the SQL
 * statements of the two steps, counted at the portal's database object, and the rounds they come
 * in. With the counters in PostgreSQL (no REDIS_URL) the password step is one statement before
 * the hash (the account, the guesses taken, the second-factor state) and two side by side after a
 * right password (the counters' writes; the session with the device row), see
 * apps/server/src/modules/identity/login.ts.
 */
let portal: TestPortal;

beforeAll(async () => (portal = await startPortal()));
afterAll(() => portal?.close());

/**
 * Not the login's: the general request limit's batched flush (every 250 ms, one statement for all
 * requests of the interval, of keys "ip:…" and "session:…", http/rate-limit.ts), the counters'
 * sweep (once a minute), and the outbox's worker.
 */
function background(text: string, params: readonly unknown[] | undefined): boolean {
  if (/^DELETE FROM rate_limits WHERE reset_at < now\(\)/.test(text)) return true;
  // the outbox's worker waking on its clock or a notification (apps/server/src/outbox/queries.ts):
  // its claim of due rows, its look at the next one due, its wake-up of the other instances
  if (/FOR UPDATE OF \w+ SKIP LOCKED$/.test(text) || /^SELECT greatest\(0, \(extract\(epoch FROM min\(/.test(text)) return true;
  if (/^SELECT pg_notify\('pp_\w+', ''\)$/.test(text)) return true;
  // the counters' upsert (counterAddSql) for keys none of which is a login limit's
  const keys = params?.[0];
  return (
    /^INSERT INTO rate_limits \(key, hits, reset_at\)/.test(text) &&
    Array.isArray(keys) &&
    keys.every((k) => !String(k).startsWith('login-failures:'))
  );
}

/**
 * The login's statements run during fn, and its rounds: a statement begun while none of the
 * login's statements is in flight begins a round; one begun beside another joins its round.
 */
async function statementsOf(fn: () => Promise<unknown>, on: TestPortal = portal): Promise<{ statements: string[]; rounds: number }> {
  const db = on.services.db;
  const original = db.query.bind(db);
  const statements: string[] = [];
  let rounds = 0;
  let inFlight = 0;
  db.query = async (text: string, params?: readonly unknown[]) => {
    const shown = text.replace(/\s+/g, ' ').trim();
    if (background(shown, params)) return original(text, params);
    statements.push(shown);
    if (inFlight === 0) rounds += 1;
    inFlight += 1;
    try {
      return await original(text, params);
    } finally {
      inFlight -= 1;
    }
  };
  try {
    await fn();
  } finally {
    db.query = original;
  }
  return { statements, rounds };
}

/** A new user's two login steps (the e-mail, then the password) from a new browser, and the statements they ran. */
async function twoStepLogin(on: TestPortal = portal) {
  const user = await createUser(on);
  const client = on.client();
  const ran = await statementsOf(async () => {
    expect((await client.post('/api/identity/email-login', { email: user.email })).status).toBe(200);
    expect((await login(client, { email: user.email, password: user.password })).status).toBe(200);
  }, on);
  return { user, client, ...ran };
}

describe('a password login, with the counters in PostgreSQL', () => {
  it('runs at most 3 statements in 2 rounds over its two steps, from a new browser', async () => {
    const { user, client, statements, rounds } = await twoStepLogin();
    expect(client.cookies.get('pp_session')).toBeTruthy();
    expect(client.cookies.get('pp_device')).toBeTruthy();
    expect(statements.length, statements.join('\n')).toBeLessThanOrEqual(3);
    expect(rounds, statements.join('\n')).toBeLessThanOrEqual(2);
    // the session, the user's last sign-in and the device row are written; the guesses are given back
    const { rows } = await portal.services.db.query<{ sessions: number; devices: number; signed_in: boolean; hits: number }>(
      `SELECT (SELECT count(*)::int FROM sessions WHERE user_id = $1) AS sessions,
              (SELECT count(*)::int FROM device_cookies WHERE user_id = $1) AS devices,
              (SELECT last_sign_in_at IS NOT NULL FROM users WHERE id = $1) AS signed_in,
              (SELECT coalesce(sum(hits), 0)::int FROM rate_limits WHERE key = 'login-failures:account:' || lower($2)) AS hits`,
      [user.id, user.email],
    );
    expect(rows[0]).toEqual({ sessions: 1, devices: 1, signed_in: true, hits: 0 });
  });

  it('runs at most 3 statements in 2 rounds from a browser with a known device cookie', async () => {
    const user = await createUser(portal);
    const client = portal.client();
    expect((await login(client, { email: user.email, password: user.password })).status).toBe(200);
    expect((await login(client, { email: user.email, password: 'Wrong-Passw0rd!' })).status).toBe(400);
    const { statements, rounds } = await statementsOf(async () => {
      expect((await login(client, { email: user.email, password: user.password })).status).toBe(200);
    });
    expect(statements.length, statements.join('\n')).toBeLessThanOrEqual(3);
    expect(rounds, statements.join('\n')).toBeLessThanOrEqual(2);
    // the success cleared the browser's own failures
    const { rows } = await portal.services.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM rate_limits WHERE key LIKE 'login-failures:device:%' AND hits > 0`,
    );
    expect(rows[0]!.n).toBe(0);
  });

  it('runs the same statements for a wrong password of an account and of an unknown address', async () => {
    const user = await createUser(portal);
    const known = await statementsOf(() => login(portal.client(), { email: user.email, password: 'Wrong-Passw0rd!' }));
    const unknown = await statementsOf(() =>
      login(portal.client(), { email: `nobody-${user.id}@example.com`, password: 'Wrong-Passw0rd!' }),
    );
    expect(known.statements.length, known.statements.join('\n')).toBe(1);
    expect(unknown).toEqual(known);
  });

  it('writes the device row with the second step when the account has a second factor: still 3 statements in 2 rounds', async () => {
    const user = await createUser(portal);
    await enrolTotp(await portal.sessionFor(user.id));
    const client = portal.client();
    const { statements, rounds } = await statementsOf(async () => {
      const res = await login(client, { email: user.email, password: user.password });
      expect(res.status, res.text).toBe(200);
      expect(res.body.next_step).toBe('second_factor');
    });
    expect(client.cookies.get('pp_session')).toBeUndefined();
    expect(client.cookies.get('pp_second_step')).toBeTruthy();
    expect(statements.length, statements.join('\n')).toBeLessThanOrEqual(3);
    expect(rounds, statements.join('\n')).toBeLessThanOrEqual(2);
    const { rows } = await portal.services.db.query<{ n: number }>('SELECT count(*)::int AS n FROM device_cookies WHERE user_id = $1', [
      user.id,
    ]);
    expect(rows[0]!.n).toBe(1);
  });

  it('uses no guess when the return address is refused', async () => {
    const user = await createUser(portal);
    const res = await portal
      .client()
      .post('/api/identity/login', { email: user.email, password: 'Wrong-Passw0rd!', return_url: 'https://evil.example.com/' });
    expect(res.status).toBe(400);
    const { rows } = await portal.services.db.query<{ hits: number }>(
      `SELECT coalesce(sum(hits), 0)::int AS hits FROM rate_limits WHERE key = 'login-failures:account:' || lower($1)`,
      [user.email],
    );
    expect(rows[0]!.hits).toBe(0);
  });

  it('writes no device row for a browser whose device cookie is known and young; renews one past half its life', async () => {
    const user = await createUser(portal);
    const client = portal.client();
    const signIn = async () =>
      (
        await statementsOf(async () => {
          expect((await login(client, { email: user.email, password: user.password })).status).toBe(200);
        })
      ).statements;
    const deviceWrites = (statements: string[]) => statements.filter((s) => s.includes('INSERT INTO device_cookies')).length;
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

describe('a password login, with the counters in Redis (REDIS_URL)', () => {
  let redisPortal: TestPortal;
  beforeAll(async () => {
    redisPortal = await startPortal({
      REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
      LOGIN_RATE_LIMIT_PER_ACCOUNT: '2',
      // the address's counter lives on in Redis between runs of this file
      LOGIN_RATE_LIMIT_PER_IP: '100000',
    });
  });
  afterAll(() => redisPortal?.close());

  it('signs in with the guesses counted in Redis: 2 statements in 2 rounds, none on rate_limits', async () => {
    const { user, client, statements, rounds } = await twoStepLogin(redisPortal);
    expect(client.cookies.get('pp_session')).toBeTruthy();
    expect(statements.length, statements.join('\n')).toBeLessThanOrEqual(2);
    expect(rounds, statements.join('\n')).toBeLessThanOrEqual(2);
    expect(statements.filter((s) => s.includes('rate_limits'))).toEqual([]);
    const redis = redisPortal.services.redis!;
    expect(Number(await redis.get(`pp:rl:login-failures:account:${user.email}`))).toBe(0);
  });

  it('refuses past the account limit with 429, even the right password; a success gives its guess back', async () => {
    const user = await createUser(redisPortal);
    expect((await login(redisPortal.client(), { email: user.email, password: 'Wrong-Passw0rd!' })).status).toBe(400);
    expect((await login(redisPortal.client(), { email: user.email, password: user.password })).status).toBe(200);
    expect((await login(redisPortal.client(), { email: user.email, password: 'Wrong-Passw0rd!' })).status).toBe(400);
    const refused = await login(redisPortal.client(), { email: user.email, password: user.password });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(await redisPortal.services.redis!.get(`pp:rl:login-failures:account:${user.email}`))).toBe(2);
  });
});
