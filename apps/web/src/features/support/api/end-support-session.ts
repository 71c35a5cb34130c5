import { api } from '@/lib/api';

/** DELETE /api/support-sessions/{id} — end the support session this browser is in; the browser is the supporter's again. */
export const endSupportSession = (id: string) => api.delete(`/support-sessions/${encodeURIComponent(id)}`);
