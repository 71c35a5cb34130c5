import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
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

/** The user's second factors (none asked for a user who signs in elsewhere). */
export const useFactors = (enabled: boolean) => useQuery({ ...factorsQuery, enabled });

/** Refetch the second factors (after a change made elsewhere, such as a finished app set-up). */
export function useRefreshFactors(): () => Promise<void> {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: factorsQueryKey });
}

/** A change to the second factors; once it is done, they are refetched before the change counts as finished. */
export function useFactorsChange<TResult, TVariables = void>(mutationFn: (variables: TVariables) => Promise<TResult>) {
  const refresh = useRefreshFactors();
  return useMutation({ mutationFn, onSuccess: refresh });
}

export const useRemoveTotp = () => useFactorsChange(removeTotp);
export const useRegenerateRecoveryCodes = () => useFactorsChange(regenerateRecoveryCodes);
export const useConfirmIdentity = () => useMutation({ mutationFn: confirmIdentity });
