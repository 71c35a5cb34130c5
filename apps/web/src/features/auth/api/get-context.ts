import type { ContextResponse } from '@partner-portal/contracts';
import { useAnswer } from '@/lib/answers';
import { api } from '@/lib/api';

/** GET /api/identity/context?returnUrl= — the client asking for the login, and hints. */
export const getContext = (returnUrl: string) => api.get<ContextResponse>('/identity/context', { query: { returnUrl } });

/** The context of the login's return URL, when the address has one (asked for once per page load). */
export const useLoginContext = (returnUrl: string | null) =>
  useAnswer(returnUrl === null ? null : `identity-context:${returnUrl}`, () => getContext(returnUrl ?? ''));
