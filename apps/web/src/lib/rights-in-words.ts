import { ApiError } from './api';
import type { Translate } from './errors';

/** The refusals whose Messages are rights as "section.right" (members/service.ts, invitations/service.ts, service-accounts/service.ts). */
const RIGHTS_REFUSALS = new Set([
  'cannot_manage_member_with_more_rights',
  'cannot_grant_rights_not_held',
  'cannot_delete_service_account_with_more_rights',
]);

/** A right in words: "Loyalty & Trade-in: Access" (as the rights editor shows it), or global full permission. */
export function rightInWords(code: string, t: Translate): string {
  if (code === 'global_full_permission') return t('rights.global_full_permission');
  const [section, right] = code.split('.');
  if (!section || !right) return code;
  const name = t(`rights.${section}.${right}`, { defaultValue: t(`rights.common.${right}`, { defaultValue: right }) });
  return `${t(`rights.${section}.title`, { defaultValue: section })}: ${name}`;
}

/** The failure with the rights a refusal lists named in words; any other failure as it is. */
export function withRightsInWords(error: unknown, t: Translate): unknown {
  if (!(error instanceof ApiError) || !error.problem?.messages?.length) return error;
  if (!RIGHTS_REFUSALS.has(error.problem.i18NTranslationKey ?? '')) return error;
  const messages = error.problem.messages.map((code) => rightInWords(code, t));
  return new ApiError(error.status, { ...error.problem, messages }, error.retryAfter);
}
