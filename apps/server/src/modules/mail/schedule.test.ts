import { describe, expect, it } from 'vitest';
import { MAX_ATTEMPTS, MAX_DELAY_SECONDS, mailRetryDelaySeconds } from './schedule.js';

const span = (base: number, random: () => number) =>
  Array.from({ length: MAX_ATTEMPTS - 1 }, (_, i) => mailRetryDelaySeconds(i + 1, base, random)!).reduce((a, b) => a + b, 0);

describe('e-mail retry schedule', () => {
  it('retries the first time within 30 s at every allowed base (1–25 s), jitter included', () => {
    for (const base of [1, 15, 25]) {
      expect(mailRetryDelaySeconds(1, base, () => 0)).toBe(base);
      expect(mailRetryDelaySeconds(1, base, () => 0.999)).toBeLessThanOrEqual(30);
    }
  });

  it('makes twelve attempts or more, growing delays up to the cap, then gives up', () => {
    expect(MAX_ATTEMPTS).toBeGreaterThanOrEqual(12);
    const delays = Array.from({ length: MAX_ATTEMPTS - 1 }, (_, i) => mailRetryDelaySeconds(i + 1, 15, () => 0)!);
    for (let i = 1; i < delays.length; i++) expect(delays[i]).toBeGreaterThanOrEqual(delays[i - 1]!);
    expect(delays.at(-1)).toBe(MAX_DELAY_SECONDS);
    expect(mailRetryDelaySeconds(MAX_ATTEMPTS, 15)).toBeNull();
    expect(mailRetryDelaySeconds(0, 15)).toBeNull();
  });

  it('spans at least a day at any base, about 40 hours at the default', () => {
    for (const base of [1, 15, 25]) expect(span(base, () => 0)).toBeGreaterThanOrEqual(24 * 3600);
    expect(span(15, () => 0) / 3600).toBeCloseTo(40.3, 0);
    expect(span(15, () => 0.999) / 3600).toBeLessThan(50);
  });
});
