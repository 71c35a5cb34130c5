/** A manager's test sign-in of a connection (features/identity), as the callback leaves it in the address. */

/** The outcome of a manager's test sign-in, as the callback left it in the address. */
export type SsoTestOutcome = { ok: true; email: string } | { ok: false; key: string };

/** The parameters a test sign-in leaves in the address (removed once read). */
export const SSO_TEST_PARAMS = ['sso_test', 'sso_test_email'] as const;

/** Reads ?sso_test=ok&sso_test_email=… or ?sso_test=<error key>; null when there is none (or it is no key). */
export function readSsoTest(params: URLSearchParams): SsoTestOutcome | null {
  const value = params.get('sso_test');
  if (!value) return null;
  if (value === 'ok') return { ok: true, email: (params.get('sso_test_email') ?? '').slice(0, 200) };
  return /^[a-z][a-z0-9_]{0,79}$/.test(value) ? { ok: false, key: value } : { ok: false, key: 'sign_in_error_unknown' };
}
