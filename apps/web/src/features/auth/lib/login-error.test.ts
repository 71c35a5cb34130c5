import { describe, expect, it } from 'vitest';
import { loginErrorMessageKey } from './login-error';

describe('the login page’s error message', () => {
  it('is the portal’s own message for its error code, never text from elsewhere', () => {
    expect(loginErrorMessageKey('external_login_failed')).toBe('external_login_failed');
    expect(loginErrorMessageKey('interaction_expired')).toBe('interaction_expired');
    expect(loginErrorMessageKey('account_locked')).toBe('external_login_failed');
    expect(loginErrorMessageKey('Call +31 555 0100 to unlock')).toBe('external_login_failed');
    expect(loginErrorMessageKey(null)).toBe('external_login_failed');
  });
});
