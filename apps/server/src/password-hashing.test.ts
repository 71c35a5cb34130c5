import { describe, expect, it } from 'vitest';
import { concurrencyLimit, hashPassword, verifyPassword } from './password-hashing.js';

describe('concurrencyLimit', () => {
  it('runs at most max tasks at once, in arrival order, and passes results and errors through', async () => {
    const limit = concurrencyLimit(2);
    let inFlight = 0;
    let peak = 0;
    const started: number[] = [];
    const task = (i: number) => async () => {
      started.push(i);
      inFlight++;
      peak = Math.max(peak, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 5));
      inFlight--;
      if (i === 3) throw new Error('task 3 failed');
      return i * 10;
    };
    const results = await Promise.allSettled([0, 1, 2, 3, 4, 5].map((i) => limit(task(i))));
    expect(peak).toBe(2);
    expect(started).toEqual([0, 1, 2, 3, 4, 5]);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual([
      0,
      10,
      20,
      'task 3 failed',
      40,
      50,
    ]);
    // the slots are free again afterwards
    expect(await limit(async () => 'again')).toBe('again');
  });
});

describe('passwords', () => {
  it('verifies an argon2id hash of the password, rejects another password and a malformed hash', async () => {
    const stored = await hashPassword('Correct-Horse-9');
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(stored, 'Correct-Horse-9')).toBe(true);
    expect(await verifyPassword(stored, 'correct-horse-9')).toBe(false);
    expect(await verifyPassword('not-a-hash', 'Correct-Horse-9')).toBe(false);
  });
});
