import { describe, expect, it } from 'vitest';
import { passwordFormErrors } from './password-form';

describe('passwordFormErrors (docs/product.md, "Validation")', () => {
  it('shows the required and the mismatch errors together', () => {
    expect(passwordFormErrors(['', 'Abcdef1!', 'Abcdef1?'], 'Abcdef1!', 'Abcdef1?')).toEqual([
      'fill_all_required_fields',
      'password_error_no_match',
    ]);
  });
  it('lists the broken password rules', () => {
    expect(passwordFormErrors(['x', 'abc', 'abc'], 'abc', 'abc')).toEqual([
      'password_too_short',
      'password_requires_digit',
      'password_requires_upper',
      'password_requires_non_alphanumeric',
    ]);
  });
  it('passes a good password', () => {
    expect(passwordFormErrors(['old', 'Abcdef1!', 'Abcdef1!'], 'Abcdef1!', 'Abcdef1!')).toEqual([]);
  });
});
