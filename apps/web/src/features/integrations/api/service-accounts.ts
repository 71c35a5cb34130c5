import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ServiceAccount, ServiceAccountCreate, ServiceAccountCreated } from '@partner-portal/contracts';
import { api } from '@/lib/api';
import { integrationKeys } from './query-keys';

/**
 * Service accounts of an organization (the operating contract, "Service accounts"): listed without
 * secrets, created with the client secret in the answer only, deleted. A change refetches the list.
 */
const base = (organizationId: string) => `/organizations/${encodeURIComponent(organizationId)}/service-accounts`;

export function useServiceAccounts(organizationId: string) {
  return useQuery({
    queryKey: integrationKeys.serviceAccounts(organizationId),
    queryFn: async ({ signal }) => await api.get<ServiceAccount[]>(base(organizationId), { signal }),
    staleTime: 10_000,
  });
}

function useServiceAccountChange<Variables, Answer>(organizationId: string, mutationFn: (variables: Variables) => Promise<Answer>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: integrationKeys.serviceAccounts(organizationId) }),
  });
}

/** POST …/service-accounts → its client id and secret (shown this once). */
export function useCreateServiceAccount(organizationId: string) {
  return useServiceAccountChange(
    organizationId,
    async (body: ServiceAccountCreate) => await api.post<ServiceAccountCreated>(base(organizationId), body),
  );
}

/** DELETE …/service-accounts/{id}: its tokens stop working at once. */
export function useDeleteServiceAccount(organizationId: string) {
  return useServiceAccountChange(organizationId, (id: string) => api.delete(`${base(organizationId)}/${encodeURIComponent(id)}`));
}

/** Where an application takes its tokens (client_credentials) with the account's client id and secret. */
export const tokenEndpoint = (origin: string) => `${origin}/connect/token`;
