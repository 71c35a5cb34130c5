import { describe, expect, it } from 'vitest';
import { formatDate } from './dates';

describe('formatDate: one format per interface language, from Intl', () => {
  it('writes day, month and year as the language does', () => {
    expect(formatDate('2026-03-07T10:00:00Z', 'en-GB', { timeZone: 'UTC' })).toBe('07/03/2026');
    expect(formatDate('2026-03-07T10:00:00Z', 'pt-BR', { timeZone: 'UTC' })).toBe('07/03/2026');
    expect(formatDate('2026-03-07T10:00:00Z', 'de', { timeZone: 'UTC' })).toBe('07.03.2026');
    expect(formatDate(new Date(Date.UTC(2025, 11, 31, 12)), 'nl', { timeZone: 'UTC' })).toBe('31-12-2025');
  });
  it('adds the time of day in 24 hours when asked, after the same date', () => {
    const withTime = formatDate('2026-03-07T15:04:00Z', 'de', { time: true, timeZone: 'UTC' });
    expect(withTime.startsWith('07.03.2026')).toBe(true);
    expect(withTime).toContain('15:04');
  });
  it('gives an empty string for missing or invalid input', () => {
    expect(formatDate(null, 'en-GB')).toBe('');
    expect(formatDate('not a date', 'en-GB')).toBe('');
  });
});
