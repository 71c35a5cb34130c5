import type { LoginConsentResponse, LoginRequest } from '@partner-portal/contracts';
import { api } from '@/lib/api';

/** POST /api/identity/login — the password step; completes a pending authorization. */
export const login = (body: LoginRequest) => api.post<LoginConsentResponse>('/identity/login', body);
