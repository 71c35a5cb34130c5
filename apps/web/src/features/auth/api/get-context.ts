import type { ContextResponse } from '@partner-portal/contracts';
import { api } from '@/lib/api';

/** GET /api/identity/context?returnUrl= — the client asking for the login, and hints. */
export const getContext = (returnUrl: string) => api.get<ContextResponse>('/identity/context', { query: { returnUrl } });
export const contextQuery = (returnUrl: string | null) => ({
  queryKey: ['identity', 'context', returnUrl] as const,
  queryFn: () => getContext(returnUrl ?? ''),
  enabled: !!returnUrl,
  staleTime: Infinity,
});
