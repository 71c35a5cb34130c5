import { describe, expect, it } from 'vitest';
import { firstLoginStep } from './first-login-step';
import { loginErrorMessage, loginErrorMessageKey } from './login-error';

describe('the login page’s error message', () => {
  it('is the portal’s own message for its error code, never text from elsewhere', () => {
    expect(loginErrorMessageKey('external_login_failed')).toBe('external_login_failed');
    expect(loginErrorMessageKey('interaction_expired')).toBe('interaction_expired');
    expect(loginErrorMessageKey('account_locked')).toBe('external_login_failed');
    expect(loginErrorMessageKey('Call +31 555 0100 to unlock')).toBe('external_login_failed');
    expect(loginErrorMessageKey(null)).toBe('external_login_failed');
  });

  it('names the single sign-on connection its translation names', () => {
    expect(loginErrorMessage({ error: 'sso_no_account', params: { connection: 'Noord Entra ID' } })).toEqual({
      key: 'sso_no_account',
      params: { connection: 'Noord Entra ID' },
    });
    expect(loginErrorMessage({ error: 'external_login_failed' })).toEqual({ key: 'external_login_failed', params: {} });
    expect(loginErrorMessage({ error: 'evil', params: { connection: 'x' } }).key).toBe('external_login_failed');
  });
});

describe('the login page’s first step', () => {
  it('continues a sign-in at an identity provider with the portal’s second step', () => {
    expect(firstLoginStep('second_factor')).toBe('second_factor');
    expect(firstLoginStep('enrol_second_factor')).toBe('enrol');
    expect(firstLoginStep(null)).toBe('email');
    expect(firstLoginStep('password')).toBe('email');
  });
});
