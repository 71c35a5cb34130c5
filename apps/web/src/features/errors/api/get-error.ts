import type { ErrorMessage } from '@partner-portal/contracts';
import { api } from '@/lib/api';
import { optionalQuery } from '@/lib/optional-query';

/** GET /api/identity/error?errorId= — the failed authorization behind /error. */
export const getError = (errorId: string) => api.get<ErrorMessage>('/identity/error', { query: { errorId } });
export const errorQuery = (errorId: string | null) => optionalQuery(['identity', 'error'], errorId, getError, { retry: false });
