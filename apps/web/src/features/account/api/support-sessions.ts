import type { OwnSupportSessions } from '@partner-portal/contracts';
import { api } from '@/lib/api';

/** GET /api/me/support-sessions — the support sessions as the signed-in user: who, when, how long, why. */
export const getOwnSupportSessions = () => api.get<OwnSupportSessions>('/me/support-sessions');
export const ownSupportSessionsQuery = { queryKey: ['me', 'support-sessions'] as const, queryFn: getOwnSupportSessions };
