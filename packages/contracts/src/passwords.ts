import { z } from 'zod';

/**
 * The password policy's composition rules (docs/product.md, "Validation"), written once: the zod
 * schema, the web app's hints and the server's policy (which adds the block-list) all derive from
 * this table. Each key is a translation key; the web app's hint for it is `hint_<key>`.
 */
export const PASSWORD_MIN_LENGTH = 8;
/** Longer passwords are refused when set, and still accepted when signing in up to this length. */
export const PASSWORD_MAX_LENGTH = 128;

const PASSWORD_RULE_TABLE = [
  { key: 'password_too_short', met: (password: string) => password.length >= PASSWORD_MIN_LENGTH },
  { key: 'password_requires_digit', met: (password: string) => /[0-9]/.test(password) },
  { key: 'password_requires_lower', met: (password: string) => /\p{Ll}/u.test(password) },
  { key: 'password_requires_upper', met: (password: string) => /\p{Lu}/u.test(password) },
  { key: 'password_requires_non_alphanumeric', met: (password: string) => /[^\p{L}\p{N}]/u.test(password) },
] as const;

export type PasswordRule = (typeof PASSWORD_RULE_TABLE)[number]['key'];

/** The rules, in the order the hints show them. */
export const PASSWORD_RULES: readonly PasswordRule[] = PASSWORD_RULE_TABLE.map((rule) => rule.key);

/** Which rules a candidate still breaks (for the hints shown while typing, and the schema). */
export function brokenPasswordRules(password: string): PasswordRule[] {
  return PASSWORD_RULE_TABLE.filter((rule) => !rule.met(password)).map((rule) => rule.key);
}

/** A new password: required, at most PASSWORD_MAX_LENGTH, and every rule of the table; messages are translation keys. */
export const passwordSchema = z
  .string({ message: 'password_required' })
  .min(1, { message: 'password_required' })
  .max(PASSWORD_MAX_LENGTH, { message: 'password_too_long' })
  .superRefine((password, ctx) => {
    for (const key of brokenPasswordRules(password)) ctx.addIssue({ code: 'custom', message: key });
  });

/**
 * A new password and its confirmation (docs/product.md, "Validation"): when both are given and
 * differ, the confirmation gets 'password_error_no_match'. A missing field is each form's own
 * 'required' rule.
 */
export function confirmationMismatch(password: string | null | undefined, confirmation: string | null | undefined): boolean {
  return !!password && !!confirmation && password !== confirmation;
}

/** confirmationMismatch as a refinement of an object schema, reported on the confirmation field. */
export function withPasswordConfirmation<K extends string, T extends z.ZodType<Record<K, string | null | undefined>>>(
  schema: T,
  password: K,
  confirmation: K,
): T {
  return schema.refine((value) => !confirmationMismatch(value[password], value[confirmation]), {
    message: 'password_error_no_match',
    path: [confirmation],
  });
}
