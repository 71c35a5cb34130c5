import { brokenPasswordRules, type ErrorKey } from '@partner-portal/contracts';
import { COMMON_PASSWORDS_TEXT } from './common-passwords.js';

/**
 * The password policy: spec §5 (at least 8 characters, lower, upper, digit, special; the rules
 * shared with the web app in the contracts), at most 128 characters, and not a common password
 * (NIST SP 800-63B block-list).
 */
export const PASSWORD_MAX_LENGTH = 128;

const SUBSTITUTIONS: Record<string, string> = { '@': 'a', '4': 'a', '3': 'e', '1': 'i', '!': 'i', '0': 'o', $: 's', '5': 's', '7': 't', '+': 't' };

function normalise(value: string): string {
  return value.toLowerCase().normalize('NFKC');
}

function deLeet(value: string): string {
  return [...value].map((c) => SUBSTITUTIONS[c] ?? c).join('');
}

const COMMON = new Set(
  COMMON_PASSWORDS_TEXT.split('\n')
    .map((l) => normalise(l.trim()))
    .filter(Boolean),
);

/** Whether a password is, or is a trivial variation of, a common password. */
export function isCommonPassword(password: string): boolean {
  const lower = normalise(password);
  // the core without leading/trailing digits and symbols: "Summer2024!" -> "summer"
  const core = lower.replace(/^[^\p{L}]+|[^\p{L}]+$/gu, '');
  const candidates = [lower, core, deLeet(lower), deLeet(core), deLeet(lower).replace(/^[^\p{L}]+|[^\p{L}]+$/gu, '')];
  return candidates.some((c) => c.length > 0 && COMMON.has(c));
}

/** Every rule a new password breaks, as translation keys (empty when it is acceptable). */
export function passwordProblems(password: string): ErrorKey[] {
  if (!password) return ['password_required'];
  if (password.length > PASSWORD_MAX_LENGTH) return ['password_too_long'];
  const broken: ErrorKey[] = [...brokenPasswordRules(password)];
  if (broken.length === 0 && isCommonPassword(password)) broken.push('password_too_common');
  return broken;
}
