import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  brokenPasswordRules,
  confirmationMismatch,
  PASSWORD_MAX_LENGTH,
  PASSWORD_RULES,
  passwordSchema,
  withPasswordConfirmation,
} from './passwords.js';

const issues = (value: unknown) => passwordSchema.safeParse(value).error?.issues.map((i) => i.message) ?? [];

describe('the password rules (docs/product.md, "Validation")', () => {
  it('the schema refuses a password for exactly the rules the hints show as broken', () => {
    for (const candidate of ['short', 'alllowercase1!', 'ALLUPPER1!', 'NoDigits!!', 'NoSymbol12', 'Abcdef1!', 'Ünïcode-1ß'])
      expect(issues(candidate)).toEqual(brokenPasswordRules(candidate));
  });
  it('lists the rules in the hints order, and requires and limits the password', () => {
    expect(PASSWORD_RULES).toEqual([
      'password_too_short',
      'password_requires_digit',
      'password_requires_lower',
      'password_requires_upper',
      'password_requires_non_alphanumeric',
    ]);
    expect(issues('')[0]).toBe('password_required');
    expect(issues(`Aa1!${'x'.repeat(PASSWORD_MAX_LENGTH)}`)).toEqual(['password_too_long']);
    expect(passwordSchema.parse('Abcdef1!')).toBe('Abcdef1!');
  });
  it('reports a confirmation only when both are given and differ', () => {
    expect(confirmationMismatch('Abcdef1!', 'Abcdef1?')).toBe(true);
    expect(confirmationMismatch('Abcdef1!', 'Abcdef1!')).toBe(false);
    expect(confirmationMismatch('Abcdef1!', '')).toBe(false);
    expect(confirmationMismatch(null, 'x')).toBe(false);
    const form = withPasswordConfirmation(z.object({ password: z.string(), again: z.string() }), 'password', 'again');
    expect(form.safeParse({ password: 'a', again: 'b' }).error?.issues).toMatchObject([
      { message: 'password_error_no_match', path: ['again'] },
    ]);
    expect(form.safeParse({ password: 'a', again: 'a' }).success).toBe(true);
  });
});
