import { describe, expect, it } from 'vitest';
import { formatDate } from './dates';

describe('formatDate (docs/product.md, "Limits and constants": dd/mm/yy, nl-NL order)', () => {
  it('gives two digits for day, month and year', () => {
    expect(formatDate('2026-03-07T10:00:00Z', 'UTC')).toBe('07/03/26');
    expect(formatDate(new Date(Date.UTC(2025, 11, 31, 12)), 'UTC')).toBe('31/12/25');
  });
  it('gives an empty string for missing or invalid input', () => {
    expect(formatDate(null)).toBe('');
    expect(formatDate('not a date')).toBe('');
  });
});
