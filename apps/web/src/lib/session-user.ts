import type { UserInfo } from '@partner-portal/contracts';
import { useAnswer } from './answers';
import { ApiError, api } from './api';

/**
 * The session user (GET /api/identity/user-info), or null when not logged in, without the query
 * client: what the login route needs (lib/answers.ts). Signed-in views read it through
 * `useSessionUser` (lib/session.ts), which keeps this answer current.
 */
export const SESSION_ANSWER = 'session-user';

export async function fetchSessionUser(): Promise<UserInfo | null> {
  try {
    return await api.get<UserInfo>('/identity/user-info', { retries: 0 });
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) return null;
    throw err;
  }
}

/** The session user as the login route sees it: asked for once, then kept current by the query client. */
export function useSessionAnswer() {
  return useAnswer(SESSION_ANSWER, fetchSessionUser);
}
