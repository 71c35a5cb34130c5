import type { EmailLoginRequest, LoginConsentResponse } from '@partner-portal/contracts';
import { api } from '@/lib/api';

/** POST /api/identity/email-login — does this address log in externally or by password? */
export const emailLogin = (body: EmailLoginRequest) => api.post<LoginConsentResponse>('/identity/email-login', body);
