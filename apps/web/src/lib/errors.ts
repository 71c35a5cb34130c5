import { ApiError } from './api';

/**
 * How a failed call is shown (docs/product.md, "Errors"), as pure data so it can be tested:
 * - 400: per-field errors, each by its translation key when present, else by its message;
 * - 409: the translated key of the problem, falling back to 'invalid_operation';
 * - 403 and 404: the translated key when it says more than the status (e.g. 'unknown_member',
 *   'cannot_grant_rights_not_held'), else 'error_try_again';
 * - 429: a red toast 'too_many_requests' (callers may ignore it, e.g. change and forgot password);
 * - anything else: 'error_try_again'.
 * The problem's Messages (e.g. the allowed domains) follow the text.
 */
export type ErrorView =
  | { kind: 'fields'; fields: Record<string, string[]>; summary: string[]; messages?: string[] }
  | { kind: 'conflict'; key: string; messages: string[]; params: Record<string, string | number> }
  | { kind: 'too_many_requests'; key: 'too_many_requests' }
  | { kind: 'generic'; key: string; status: number | null; messages?: string[]; params?: Record<string, string | number> };

/** The keys that only restate a status: they give the user nothing the general message does not. */
const STATUS_KEYS = new Set(['validation_failed', 'forbidden', 'not_found']);

/** Translation function shape used by the helpers (i18next's `t`, or a stub in tests). */
export type Translate = (key: string, options?: Record<string, unknown>) => string;

export function describeError(err: unknown, knownKey: (key: string) => boolean = () => true): ErrorView {
  if (!(err instanceof ApiError)) return { kind: 'generic', key: 'error_try_again', status: null };
  const problem = err.problem;
  if (err.status === 400) {
    const fields: Record<string, string[]> = {};
    for (const [field, list] of Object.entries(problem?.errors ?? {})) {
      fields[field] = list.map((e) => (e.translation_key && knownKey(e.translation_key) ? e.translation_key : e.message));
    }
    const summary = Object.values(fields).flat();
    if (summary.length === 0) {
      const key = problem?.i18NTranslationKey;
      summary.push(key && knownKey(key) && !STATUS_KEYS.has(key) ? key : (problem?.detail ?? problem?.title ?? 'error_try_again'));
    }
    return problem?.messages?.length
      ? { kind: 'fields', fields, summary, messages: problem.messages }
      : { kind: 'fields', fields, summary };
  }
  if (err.status === 409) {
    const key = problem?.i18NTranslationKey;
    return {
      kind: 'conflict',
      key: key && knownKey(key) ? key : 'invalid_operation',
      messages: problem?.messages ?? [],
      params: problem?.params ?? {},
    };
  }
  if (err.status === 429) return { kind: 'too_many_requests', key: 'too_many_requests' };
  if (err.status === 403 || err.status === 404) {
    const key = problem?.i18NTranslationKey;
    if (key && knownKey(key) && !STATUS_KEYS.has(key))
      return { kind: 'generic', key, status: err.status, messages: problem?.messages ?? [], params: problem?.params ?? {} };
  }
  return { kind: 'generic', key: 'error_try_again', status: err.status };
}

/** The lines of text for a failure, translated: the error, then the problem's Messages, each once. */
export function errorLines(err: unknown, t: Translate, knownKey?: (key: string) => boolean): string[] {
  const view = describeError(err, knownKey);
  const lines =
    view.kind === 'fields'
      ? [...view.summary.map((s) => t(s, { defaultValue: s })), ...(view.messages ?? [])]
      : view.kind === 'conflict'
        ? [t(view.key, { ...view.params, defaultValue: t('invalid_operation') }), ...view.messages]
        : view.kind === 'generic'
          ? [t(view.key, { ...view.params, defaultValue: t('error_try_again') }), ...(view.messages ?? [])]
          : [t(view.key)];
  return [...new Set(lines)];
}

/** The text for a failure, translated: its lines, one per line. */
export function errorMessage(err: unknown, t: Translate, knownKey?: (key: string) => boolean): string {
  return errorLines(err, t, knownKey).join('\n');
}

/** The translated message of each field error of a 400, keyed by the wire field name. */
export function fieldErrorMessages(err: unknown, t: Translate, knownKey?: (key: string) => boolean): Record<string, string> {
  const view = describeError(err, knownKey);
  if (view.kind !== 'fields') return {};
  return Object.fromEntries(
    Object.entries(view.fields).map(([field, list]) => [field, list.map((s) => t(s, { defaultValue: s })).join(' ')]),
  );
}

/** OAuth / OpenID Connect error codes that get their own explanation; others get a general one. */
const SIGN_IN_ERRORS = new Set([
  'invalid_client',
  'invalid_request',
  'invalid_redirect_uri',
  'unauthorized_client',
  'access_denied',
  'invalid_scope',
  'login_required',
  'consent_required',
  'server_error',
  'temporarily_unavailable',
  'interaction_expired',
]);

/**
 * The translation key explaining a failed sign-in to the user (the error page and the login page's
 * external-login error). The raw code and description stay for support, shown as a detail.
 */
export function signInErrorKey(code: string | null | undefined): string {
  return code && SIGN_IN_ERRORS.has(code) ? `sign_in_error_${code}` : 'sign_in_error_unknown';
}
