import type { ErrorMessage } from '@partner-portal/contracts';
import { api } from '@/lib/api';

/** GET /api/identity/login-error?errorId= — why an earlier (external) login failed. */
export const getLoginError = (errorId: string) => api.get<ErrorMessage>('/identity/login-error', { query: { errorId } });
export const loginErrorQuery = (errorId: string | null) => ({
  queryKey: ['identity', 'login-error', errorId] as const,
  queryFn: () => getLoginError(errorId ?? ''),
  enabled: !!errorId,
  staleTime: Infinity,
  retry: false,
});
