import type { ValidateTokenRequest, ValidateTokenResponse } from '@partner-portal/contracts';
import { api } from '@/lib/api';

/** POST /api/identity/validate-reset-token — is the reset link still good? */
export const validateResetToken = (body: ValidateTokenRequest) => api.post<ValidateTokenResponse>('/identity/validate-reset-token', body);
