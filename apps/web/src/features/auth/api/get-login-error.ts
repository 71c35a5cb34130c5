import type { ErrorMessage } from '@partner-portal/contracts';
import { api } from '@/lib/api';
import { optionalQuery } from '@/lib/optional-query';

/** GET /api/identity/login-error?errorId= — why an earlier (external) login failed. */
export const getLoginError = (errorId: string) => api.get<ErrorMessage>('/identity/login-error', { query: { errorId } });
export const loginErrorQuery = (errorId: string | null) =>
  optionalQuery(['identity', 'login-error'], errorId, getLoginError, { staleTime: Infinity, retry: false });
