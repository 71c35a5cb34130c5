import type { ContextResponse } from '@partner-portal/contracts';
import { api } from '@/lib/api';
import { optionalQuery } from '@/lib/optional-query';

/** GET /api/identity/context?returnUrl= — the client asking for the login, and hints. */
export const getContext = (returnUrl: string) => api.get<ContextResponse>('/identity/context', { query: { returnUrl } });
export const contextQuery = (returnUrl: string | null) =>
  optionalQuery(['identity', 'context'], returnUrl, getContext, { staleTime: Infinity });
