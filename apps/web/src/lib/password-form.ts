import { brokenPasswordRules, confirmationMismatch } from '@partner-portal/contracts';

/**
 * The errors of a new-password form (docs/product.md, "Validation"), all at once: every field required
 * ('fill_all_required_fields'), the new password's rules, and new and confirm matching
 * ('password_error_no_match'). Returns translation keys.
 */
export function passwordFormErrors(required: string[], newPassword: string, confirmPassword: string): string[] {
  const errors: string[] = [];
  if (required.some((v) => !v)) errors.push('fill_all_required_fields');
  if (newPassword) errors.push(...brokenPasswordRules(newPassword));
  if (confirmationMismatch(newPassword, confirmPassword)) errors.push('password_error_no_match');
  return errors;
}
