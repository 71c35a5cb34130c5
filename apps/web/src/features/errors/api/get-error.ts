import type { ErrorMessage } from '@partner-portal/contracts';
import { api } from '@/lib/api';

/** GET /api/identity/error?errorId= — the failed authorization behind /error. */
export const getError = (errorId: string) => api.get<ErrorMessage>('/identity/error', { query: { errorId } });
export const errorQuery = (errorId: string | null) => ({
  queryKey: ['identity', 'error', errorId] as const,
  queryFn: () => getError(errorId ?? ''),
  enabled: !!errorId,
  retry: false,
});
