import type { FactorsResponse, RecoveryCodesResponse } from '@partner-portal/contracts';
import { api } from '@/lib/api';

/** GET /api/factors — the signed-in user's second factors. */
export const factorsQueryKey = ['factors'] as const;
export const factorsQuery = { queryKey: factorsQueryKey, queryFn: () => api.get<FactorsResponse>('/factors') };

/** DELETE /api/factors/totp — remove the authenticator app. */
export const removeTotp = () => api.delete('/factors/totp');

/** POST /api/factors/recovery-codes — a new set of recovery codes (shown once). */
export const regenerateRecoveryCodes = () => api.post<RecoveryCodesResponse>('/factors/recovery-codes');

/** POST /api/factors/confirm-identity — the password or a code again, for five minutes of changes. */
export const confirmIdentity = (body: { password?: string; code?: string }) => api.post('/factors/confirm-identity', body);

/** POST /api/factors/passkeys — keep the new passkey under a name (shared with the login page). */
export { registerPasskey } from '@/lib/factors';

/** PATCH /api/factors/passkeys/{id} — a new name. */
export const renamePasskey = (id: string, name: string) => api.patch(`/factors/passkeys/${encodeURIComponent(id)}`, { name });

/** DELETE /api/factors/passkeys/{id} */
export const removePasskey = (id: string) => api.delete(`/factors/passkeys/${encodeURIComponent(id)}`);
