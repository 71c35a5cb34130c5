import type { LogoutResponse } from '@partner-portal/contracts';
import { api } from '@/lib/api';

/** POST /api/identity/logout — ends the portal and provider session. */
export const logout = (logoutId: string | null) => api.post<LogoutResponse>('/identity/logout', { logoutId });
