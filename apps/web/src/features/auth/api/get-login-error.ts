import type { ErrorMessage } from '@partner-portal/contracts';
import { useAnswer } from '@/lib/answers';
import { api } from '@/lib/api';

/** GET /api/identity/login-error?errorId= — why an earlier (external) login failed. */
export const getLoginError = (errorId: string) => api.get<ErrorMessage>('/identity/login-error', { query: { errorId } });

/**
 * The message of the login error the address names, when it names one (asked for once per page
 * load). The catalogue of error keys it is checked against loads with it, not with the login page.
 */
export const useLoginErrorMessage = (errorId: string | null) =>
  useAnswer(errorId === null ? null : `identity-login-error:${errorId}`, async () => {
    const [error, { loginErrorMessage }] = await Promise.all([getLoginError(errorId ?? ''), import('../lib/login-error')]);
    return loginErrorMessage(error);
  });
