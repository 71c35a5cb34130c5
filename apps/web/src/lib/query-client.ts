import { hashKey, QueryClient } from '@tanstack/react-query';
import type { UserInfo } from '@partner-portal/contracts';
import { peek, put } from './answers';
import { SESSION_ANSWER } from './session-user';

export const queryClient = new QueryClient({
  defaultOptions: { queries: { staleTime: 30_000, refetchOnWindowFocus: false, retry: false } },
});

/** The session user (GET /api/identity/user-info), or null when not logged in. */
export const sessionQueryKey = ['session', 'user-info'] as const;

// The login route knows the session without the query client (lib/answers.ts): the client starts
// from what it knows, and from then on every change of the session (a sign-in, a logout, a
// refetch) is passed back, so that the login page never sees an older one.
const known = peek<UserInfo | null>(SESSION_ANSWER);
if (!known.isPending && known.data !== undefined) queryClient.setQueryData(sessionQueryKey, known.data);
const sessionHash = hashKey(sessionQueryKey);
queryClient.getQueryCache().subscribe((event) => {
  if (event.query.queryHash !== sessionHash || event.type !== 'updated') return;
  const { status, data } = event.query.state as { status: string; data: UserInfo | null | undefined };
  if (status === 'success' && data !== undefined) put(SESSION_ANSWER, data);
});
