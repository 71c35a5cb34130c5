import { beforeAll, describe, expect, it } from 'vitest';
import { isCommonPassword, passwordProblems } from './password-policy.js';

describe('password policy', () => {
  // the block-list's dictionaries load on first use: slow on a busy machine, so before the timed tests
  beforeAll(() => void isCommonPassword('warm-up'), 60_000);

  it('accepts a strong password of 8 to 128 characters', () => {
    expect(passwordProblems('Tr1cky-Horse')).toEqual([]);
    expect(passwordProblems(`Aa1!${'x'.repeat(124)}`)).toEqual([]);
  });

  it('names every broken rule of docs/product.md, "Validation"', () => {
    expect(passwordProblems('')).toEqual(['password_required']);
    expect(passwordProblems('abc')).toEqual(
      expect.arrayContaining([
        'password_too_short',
        'password_requires_digit',
        'password_requires_upper',
        'password_requires_non_alphanumeric',
      ]),
    );
    expect(passwordProblems(`Aa1!${'x'.repeat(125)}`)).toEqual(['password_too_long']);
  });

  it('refuses common passwords and their trivial variations (NIST 800-63B block-list)', () => {
    for (const p of ['Password1!', 'P@ssw0rd2024!', 'Welcome123!', 'Summer2025!', 'Qwerty123!', '!Letmein1', 'Iloveyou1!']) {
      expect(isCommonPassword(p), p).toBe(true);
      expect(passwordProblems(p)).toEqual(['password_too_common']);
    }
    for (const p of ['Tr1cky-Horse', 'Admin-Passw0rd!', 'Fresh-Meadow-42', 'correct-Horse-battery-9']) {
      expect(isCommonPassword(p), p).toBe(false);
    }
  });

  it("refuses common words of the users' languages and the product's own words", () => {
    for (const p of [
      'Wachtwoord1!',
      'Passwort2024!',
      'Bonjour123!',
      'Contraseña1!',
      'Nedap2024!',
      'Partnerportal1!',
      '5ummer2025!',
      'droWssap1!',
    ]) {
      expect(isCommonPassword(p), p).toBe(true);
    }
    for (const p of ['Sterk-Wachtw00rd!', 'Green-Pasture-77', 'Kuhstall-Morgen-3']) {
      expect(isCommonPassword(p), p).toBe(false);
    }
  });
});
