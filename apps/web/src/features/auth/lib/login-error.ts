import { isErrorKey, type ErrorKey } from '@partner-portal/contracts';

/**
 * The translation key the login page shows for a login error: the portal's own message, chosen by
 * the error code. The stored description is never shown (an attacker can choose the text of an
 * upstream error: docs/security.md).
 */
export function loginErrorMessageKey(error: string | null | undefined): ErrorKey {
  return error && isErrorKey(error) ? error : 'external_login_failed';
}
