import type { ResetPasswordRequest } from '@partner-portal/contracts';
import { api } from '@/lib/api';

/** PUT /api/identity/reset-password — sets the new password; the link then stops working. */
export const resetPassword = (body: ResetPasswordRequest) => api.put('/identity/reset-password', body);
