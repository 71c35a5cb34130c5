import { describe, expect, it } from 'vitest';
import { externalLoginUrl, externalRegistrationSchema, registrationSchema } from './registration';

const valid = {
  first_name: ' Anna ',
  last_name: 'Jansen',
  language_code: 'nl',
  opt_in_for_newsletter: false,
  accept_agreement: true,
  password: 'Sterk-Wachtw00rd',
  password_confirmation: 'Sterk-Wachtw00rd',
};

describe('the invitation registration form', () => {
  it('trims names and accepts a valid form', () => {
    const parsed = registrationSchema.parse(valid);
    expect(parsed.first_name).toBe('Anna');
  });
  it('requires the agreement, names, and matching strong passwords', () => {
    const result = registrationSchema.safeParse({ ...valid, first_name: '  ', accept_agreement: false, password_confirmation: 'other' });
    expect(result.success).toBe(false);
    const messages = result.error!.issues.map((i) => i.message);
    expect(messages).toEqual(expect.arrayContaining(['first_name_required', 'agreement_required']));
    expect(registrationSchema.safeParse({ ...valid, password_confirmation: 'Other-Wachtw00rd' }).error!.issues[0]!.message).toBe(
      'password_error_no_match',
    );
    expect(registrationSchema.safeParse({ ...valid, password: 'short', password_confirmation: 'short' }).error!.issues[0]!.message).toBe(
      'password_too_short',
    );
  });
  it('has no password for external identities and links the upstream account', () => {
    expect(externalRegistrationSchema.safeParse({ ...valid, password: undefined }).success).toBe(true);
    expect(externalLoginUrl('abc')).toBe('/api/identity/challenge-external-login?returnUrl=%2F&invitationLogin=abc');
  });
});
