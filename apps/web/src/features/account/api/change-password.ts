import type { ChangePasswordRequest } from '@partner-portal/contracts';
import { api } from '@/lib/api';

/** POST /api/identity/change-password — native accounts only. */
export const changePassword = (body: ChangePasswordRequest) => api.post('/identity/change-password', body);
