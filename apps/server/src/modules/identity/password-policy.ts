import { createRequire } from 'node:module';
import { brokenPasswordRules, confirmationMismatch, PASSWORD_MAX_LENGTH, type ErrorKey } from '@partner-portal/contracts';
import { AppError } from '../../http/problem.js';
import type { ZxcvbnFactory as Factory, MatchExtended } from '@zxcvbn-ts/core';

/**
 * The password policy (docs/security.md, V6): the composition rules and the maximum length of
 * packages/contracts/src/passwords.ts (shared with the web app), and not on
 * the block-list of NIST SP 800-63B: a password is refused when, apart from leading and trailing
 * digits and symbols, it is one breached password, one common word of the users' languages (en,
 * nl, de, fr, es) or one of the product's own words, also reversed or in l33t ("P@ssw0rd2024!" is
 * "password"). zxcvbn-ts finds the words; only the block-list verdict is used, not its score.
 */

/** Context-specific words (ASVS 6.1.2): the product, the provider and the trade. */
export const CONTEXT_WORDS = [
  'nedap',
  'partner',
  'partners',
  'portal',
  'partnerportal',
  'dealer',
  'dealers',
  'cow',
  'cows',
  'livestock',
  'farm',
  'farmer',
  'dairy',
];

const LANGUAGE_PACKAGES = [
  '@zxcvbn-ts/language-en',
  '@zxcvbn-ts/language-nl-be',
  '@zxcvbn-ts/language-de',
  '@zxcvbn-ts/language-fr',
  '@zxcvbn-ts/language-es-es',
];

type Dictionaries = Record<string, string[]>;

let checker: Factory | undefined;

/**
 * The word lists take about 70 MB, so they are loaded at the first password check (a password is
 * set rarely), synchronously from the packages' CommonJS builds so that the policy stays a plain
 * function.
 */
function blockList(): Factory {
  if (checker) return checker;
  const require = createRequire(import.meta.url);
  const { ZxcvbnFactory } = require('@zxcvbn-ts/core') as typeof import('@zxcvbn-ts/core');
  const common = require('@zxcvbn-ts/language-common') as {
    dictionary: Dictionaries;
    adjacencyGraphs: NonNullable<ConstructorParameters<typeof Factory>[0]>['graphs'];
  };
  const dictionary: Dictionaries = { 'passwords-common': common.dictionary['passwords-common'] ?? [] };
  for (const name of LANGUAGE_PACKAGES) {
    const words = Object.entries((require(name) as { dictionary: Dictionaries }).dictionary).find(([key]) => key.startsWith('commonWords'));
    if (words) dictionary[`commonWords-${name}`] = words[1];
  }
  checker = new ZxcvbnFactory({ dictionary, graphs: common.adjacencyGraphs });
  return checker;
}

const FIRST_LETTER = /\p{L}/u;
const LAST_LETTER = /\p{L}(?!.*\p{L})/su;

/** Whether a password is, or is a trivial variation of, a blocked word. */
export function isCommonPassword(password: string): boolean {
  const normalised = password.normalize('NFKC');
  const first = normalised.search(FIRST_LETTER);
  if (first < 0) return false; // no letters: the composition rules refuse it already
  const last = normalised.search(LAST_LETTER);
  const { sequence } = blockList().check(normalised, CONTEXT_WORDS);
  // one dictionary word covers every letter: what is left is digits and symbols at the ends
  return sequence.some((match: MatchExtended) => match.pattern === 'dictionary' && match.i <= first && match.j >= last);
}

/** Every rule a new password breaks, as translation keys (empty when it is acceptable). */
export function passwordProblems(password: string): ErrorKey[] {
  if (!password) return ['password_required'];
  if (password.length > PASSWORD_MAX_LENGTH) return ['password_too_long'];
  const broken: ErrorKey[] = [...brokenPasswordRules(password)];
  if (broken.length === 0 && isCommonPassword(password)) broken.push('password_too_common');
  return broken;
}

/**
 * A new password with its confirmation, as the change and the reset of a password take them: the
 * broken rules on the password's field, a mismatch on the confirmation's, answered as one
 * validation error naming both fields.
 */
export function assertNewPassword(password: string, confirmation: string, fieldNames: { password: string; confirmation: string }): void {
  const fields: Record<string, ErrorKey[]> = {};
  const problems = passwordProblems(password);
  if (problems.length) fields[fieldNames.password] = problems;
  if (confirmationMismatch(password, confirmation)) fields[fieldNames.confirmation] = ['password_error_no_match'];
  if (Object.keys(fields).length) throw AppError.validation(fields);
}
