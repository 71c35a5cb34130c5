import type { TFunction } from 'i18next';
import { ApiError } from '@/lib/api';

/**
 * The lines to show for a failed call (docs/product.md, "Errors"): 400 → the field errors (by translation key if
 * present, else message); 409 → the translated key, fallback 'Invalid operation'; 429 → too many
 * requests; otherwise 'error_try_again'. The problem's Messages list (e.g. allowed domains) is
 * appended.
 */
export function problemLines(error: unknown, t: TFunction): string[] {
  if (!(error instanceof ApiError)) return [t('error_try_again')];
  const problem = error.problem;
  const lines: string[] = [];
  const translate = (key: string | undefined, fallback: string) =>
    (key && t(key, { defaultValue: '', ...(problem?.params ?? {}) })) || fallback;
  if (error.status === 400) {
    const fieldErrors = Object.values(problem?.errors ?? {}).flat();
    for (const e of fieldErrors) lines.push(translate(e.translation_key, e.message));
    if (lines.length === 0) lines.push(translate(problem?.i18NTranslationKey, problem?.title ?? t('error_try_again')));
  } else if (error.status === 409) {
    lines.push(translate(problem?.i18NTranslationKey, t('invalid_operation')));
  } else if (error.status === 429) {
    lines.push(t('too_many_requests'));
  } else if (error.status === 403 || error.status === 404) {
    lines.push(translate(problem?.i18NTranslationKey, t('error_try_again')));
  } else {
    lines.push(t('error_try_again'));
  }
  for (const message of problem?.messages ?? []) if (!lines.includes(message)) lines.push(message);
  return [...new Set(lines)];
}
