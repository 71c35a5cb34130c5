import type { AccountSessionsResponse } from '@partner-portal/contracts';
import { api } from '@/lib/api';

/** GET /api/identity/sessions — the user's live sessions, the current one marked. */
export const getSessions = () => api.get<AccountSessionsResponse>('/identity/sessions');
export const sessionsQuery = { queryKey: ['identity', 'sessions'] as const, queryFn: getSessions };

/** DELETE /api/identity/sessions/{id} — end one of the user's other sessions. */
export const endSession = (id: string) => api.delete(`/identity/sessions/${encodeURIComponent(id)}`);

/** POST /api/identity/sessions/end-others — end every session but this one. */
export const endOtherSessions = () => api.post<{ ended: number }>('/identity/sessions/end-others');
