import type { LoginConsentResponse, SecondFactorLoginRequest } from '@partner-portal/contracts';
import { api } from '@/lib/api';

/** POST /api/identity/second-factor — a code of the authenticator app or a recovery code completes the sign-in. */
export const secondFactor = (body: SecondFactorLoginRequest) => api.post<LoginConsentResponse>('/identity/second-factor', body);
