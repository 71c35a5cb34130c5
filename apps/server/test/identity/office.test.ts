import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { hashPassword } from '../../src/password-hashing.js';
import type { HttpClient } from '../support/http.js';
import { startPortal, type TestPortal } from '../support/portal.js';

/**
 * An office behind one public address, with the default limits (docs/security.md, "Limits and
 * thresholds"): 200 people sign in within a minute, as the login page does it (the session check,
 * the login context, the e-mail step, the password step, the user), and then make 20 requests
 * each, all from 127.0.0.1. Nobody sees a 429.
 */
const PEOPLE = 200;
const PASSWORD = 'Office-Chair-42!';
const defaults = loadConfig({});
let portal: TestPortal;

beforeAll(async () => {
  // the limits as shipped, not the test portal's raised ones
  portal = await startPortal({
    RATE_LIMIT_MAX: String(defaults.RATE_LIMIT_MAX),
    RATE_LIMIT_SESSION_MAX: String(defaults.RATE_LIMIT_SESSION_MAX),
    RATE_LIMIT_WINDOW_SECONDS: String(defaults.RATE_LIMIT_WINDOW_SECONDS),
    LOGIN_RATE_LIMIT_PER_ACCOUNT: String(defaults.LOGIN_RATE_LIMIT_PER_ACCOUNT),
    LOGIN_RATE_LIMIT_PER_IP: String(defaults.LOGIN_RATE_LIMIT_PER_IP),
  });
});
afterAll(() => portal?.close());

/** Run fn over items, at most n at a time. */
async function inParallel<T, R>(items: T[], n: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await fn(items[i]!);
      }
    }),
  );
  return results;
}

describe('an office of 200 behind one address', () => {
  it('signs in within a minute and works for the next, with no 429', async () => {
    const hash = await hashPassword(PASSWORD);
    const office = randomBytes(3).toString('hex');
    const emails: string[] = [];
    for (let i = 0; i < PEOPLE; i++) {
      const email = `colleague-${i}@office-${office}.example.com`;
      const { rows } = await portal.services.db.query<{ id: string }>(
        `INSERT INTO users (email, first_name, last_name, language_code, password_hash, terms_accepted_at) VALUES ($1, 'Colleague', $2, 'nl', $3, now()) RETURNING id`,
        [email, String(i), hash],
      );
      await portal.services.db.query(
        `INSERT INTO memberships (organization_id, user_id, email, organization_path, rights) VALUES ($1, $2, $3, 'nedap', '{}')`,
        [portal.rootOrganizationId, rows[0]!.id, email],
      );
      emails.push(email);
    }

    const statuses = new Map<number, number>();
    const count = (status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1);
    const started = Date.now();
    const browsers = await inParallel(emails, 8, async (email): Promise<HttpClient> => {
      const browser = portal.client();
      count((await browser.get('/api/identity/user-info')).status); // 401: not signed in yet
      count((await browser.get('/api/identity/context')).status);
      count((await browser.post('/api/identity/email-login', { email })).status);
      const login = await browser.post('/api/identity/login', { email, password: PASSWORD, remember: false });
      expect(login.status).toBe(200);
      count(login.status);
      count((await browser.get('/api/identity/user-info')).status);
      return browser;
    });
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(statuses.get(429)).toBeUndefined();

    const work = ['/api/identity/user-info', '/api/portal', '/api/portal/notifications', '/api/portal/application/features'];
    const requests = browsers.flatMap((browser) => Array.from({ length: 20 }, (_, i) => ({ browser, path: work[i % work.length]! })));
    await inParallel(requests, 16, async ({ browser, path }) => count((await browser.get(path)).status));
    expect(statuses.get(429)).toBeUndefined();
    expect([...statuses.keys()].sort()).toEqual([200, 401]);
    expect(statuses.get(401)).toBe(PEOPLE);
  }, 180_000);
});
