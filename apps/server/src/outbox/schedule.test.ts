import { describe, expect, it } from 'vitest';
import { maxAttempts, retryDelaySeconds } from './schedule.js';

describe('the outbox retry rule', () => {
  const schedule = { multiples: [1, 2, 4, 8], capSeconds: 50 };

  it('waits the multiple of the base after each failed attempt, at most the cap, then gives up', () => {
    expect(maxAttempts(schedule)).toBe(5);
    expect([1, 2, 3, 4].map((n) => retryDelaySeconds(schedule, n, 10))).toEqual([10, 20, 40, 50]);
    expect(retryDelaySeconds(schedule, 5, 10)).toBeNull();
    expect(retryDelaySeconds(schedule, 0, 10)).toBeNull();
  });

  it('stretches each delay by the random jitter, never shortens it', () => {
    const jittered = { ...schedule, jitter: 0.2 };
    expect(retryDelaySeconds(jittered, 1, 10, () => 0)).toBe(10);
    expect(retryDelaySeconds(jittered, 1, 10, () => 0.5)).toBeCloseTo(11);
    expect(retryDelaySeconds(jittered, 4, 10, () => 1)).toBeCloseTo(60);
  });

  it('takes a base below a second (WEBHOOK_RETRY_BASE_SECONDS=0.05 in tests): the delays stay fractions of a second', () => {
    expect([1, 2, 3, 4].map((n) => retryDelaySeconds(schedule, n, 0.05))).toEqual([0.05, 0.1, 0.2, 0.4]);
    expect(retryDelaySeconds({ ...schedule, jitter: 0.2 }, 1, 0.05, () => 1)).toBeCloseTo(0.06);
  });
});
