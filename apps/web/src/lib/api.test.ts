import { afterEach, describe, expect, it, vi } from 'vitest';
import { retryDelayMs } from './api';

describe('retryDelayMs (docs/product.md, "Calls")', () => {
  afterEach(() => vi.useRealTimers());

  it('backs off exponentially from 1 s', () => {
    expect([0, 1, 2, 3, 4, 5].map((attempt) => retryDelayMs(500, attempt, null))).toEqual([1000, 2000, 4000, 8000, 16000, 32000]);
  });

  it('caps the back-off at 64 s', () => {
    expect(retryDelayMs(502, 6, null)).toBe(64000);
    expect(retryDelayMs(502, 12, null)).toBe(64000);
  });

  it('honours Retry-After seconds on 429 and 503', () => {
    expect(retryDelayMs(429, 0, '7')).toBe(7000);
    expect(retryDelayMs(503, 2, '3')).toBe(3000);
    expect(retryDelayMs(429, 0, '600')).toBe(64000);
  });

  it('honours a Retry-After date on 503', () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-01-01T00:00:00Z'));
    expect(retryDelayMs(503, 0, 'Thu, 01 Jan 2026 00:00:05 GMT')).toBe(5000);
  });

  it('ignores Retry-After on other statuses and falls back when it is unreadable', () => {
    expect(retryDelayMs(500, 1, '30')).toBe(2000);
    expect(retryDelayMs(429, 1, 'soon')).toBe(2000);
  });
});
