import { describe, expect, it } from 'vitest';
import { MAX_ATTEMPTS, retryDelaySeconds } from './schedule.js';

describe('webhook retry schedule', () => {
  it('makes at least eight attempts, the delays growing from the base', () => {
    expect(MAX_ATTEMPTS).toBeGreaterThanOrEqual(8);
    const delays = Array.from({ length: MAX_ATTEMPTS - 1 }, (_, i) => retryDelaySeconds(i + 1, 30)!);
    expect(delays[0]).toBe(30);
    for (let i = 1; i < delays.length; i++) expect(delays[i]).toBeGreaterThan(delays[i - 1]!);
    expect(retryDelaySeconds(MAX_ATTEMPTS, 30)).toBeNull();
    expect(retryDelaySeconds(MAX_ATTEMPTS + 3, 30)).toBeNull();
  });

  it('spreads the attempts over about a day at the default base of 30 s', () => {
    const total = Array.from({ length: MAX_ATTEMPTS - 1 }, (_, i) => retryDelaySeconds(i + 1, 30)!).reduce((a, b) => a + b, 0);
    expect(total / 3600).toBeGreaterThan(20);
    expect(total / 3600).toBeLessThan(28);
  });

  it('scales with the base (tests run it at 1 s)', () => {
    expect(retryDelaySeconds(1, 1)).toBe(1);
    expect(retryDelaySeconds(2, 1)).toBe(4);
  });
});
