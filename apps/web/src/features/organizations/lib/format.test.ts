import { describe, expect, it } from 'vitest';
import { formatInvitationDate } from './format';

describe('formatting', () => {
  it('shows invitation dates as dd/mm/yy', () => {
    expect(formatInvitationDate('2026-03-04T10:00:00Z')).toBe('04/03/26');
    expect(formatInvitationDate(null)).toBe('');
  });
});
