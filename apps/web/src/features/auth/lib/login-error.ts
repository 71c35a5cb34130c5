import { isErrorKey, type ErrorKey, type ErrorMessage } from '@partner-portal/contracts';

/**
 * The translation key the login page shows for a login error: the portal's own message, chosen by
 * the error code. The stored description is never shown (an attacker can choose the text of an
 * upstream error: docs/security.md).
 */
export function loginErrorMessageKey(error: string | null | undefined): ErrorKey {
  return error && isErrorKey(error) ? error : 'external_login_failed';
}

/**
 * The login error's message as the login page shows it: the key (loginErrorMessageKey) and the
 * values its translation names, e.g. {connection}, the single sign-on connection's name (the
 * server keeps it with the error: GET /api/identity/login-error answers `params`). Only string
 * values pass.
 */
export function loginErrorMessage(message: Pick<ErrorMessage, 'error' | 'params'>): { key: ErrorKey; params: Record<string, string> } {
  const params = Object.fromEntries(Object.entries(message.params ?? {}).filter(([, value]) => typeof value === 'string'));
  return { key: loginErrorMessageKey(message.error), params };
}
