import type { ForgotPasswordRequest } from '@partner-portal/contracts';
import { api } from '@/lib/api';

/** POST /api/identity/forgot-password — always 204; a reset e-mail goes out when the account exists. */
export const forgotPassword = (body: ForgotPasswordRequest) => api.post('/identity/forgot-password', body);
