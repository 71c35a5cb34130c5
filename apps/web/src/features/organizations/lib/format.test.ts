import { describe, expect, it } from 'vitest';
import { formatInvitationDate, isDomainAllowed } from './format';

describe('formatting', () => {
  it('shows invitation dates as dd/mm/yy', () => {
    expect(formatInvitationDate('2026-03-04T10:00:00Z')).toBe('04/03/26');
    expect(formatInvitationDate(null)).toBe('');
  });
  it('checks allowed e-mail domains', () => {
    expect(isDomainAllowed('a@x.com', [])).toBe(true);
    expect(isDomainAllowed('a@X.com', ['x.com'])).toBe(true);
    expect(isDomainAllowed('a@y.com', ['@x.com'])).toBe(false);
  });
});
