import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ScimToken, ScimTokenCreate, ScimTokenCreated } from '@partner-portal/contracts';
import { api } from '@/lib/api';
import { integrationKeys } from './query-keys';

/**
 * Directories' SCIM tokens of an organization (the operating contract, "SCIM 2.0 provisioning"):
 * listed without secrets, made with the token in the answer only, deleted. A change refetches the list.
 */
const base = (organizationId: string) => `/organizations/${encodeURIComponent(organizationId)}/scim-tokens`;

export function useScimTokens(organizationId: string) {
  return useQuery({
    queryKey: integrationKeys.scimTokens(organizationId),
    queryFn: async ({ signal }) => await api.get<ScimToken[]>(base(organizationId), { signal }),
    staleTime: 10_000,
  });
}

function useScimTokenChange<Variables, Answer>(organizationId: string, mutationFn: (variables: Variables) => Promise<Answer>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: integrationKeys.scimTokens(organizationId) }),
  });
}

/** POST …/scim-tokens → the token (shown this once). */
export function useCreateScimToken(organizationId: string) {
  return useScimTokenChange(organizationId, async (body: ScimTokenCreate) => await api.post<ScimTokenCreated>(base(organizationId), body));
}

/** DELETE …/scim-tokens/{id}: the directory's next request with it is refused. */
export function useDeleteScimToken(organizationId: string) {
  return useScimTokenChange(organizationId, (id: string) => api.delete(`${base(organizationId)}/${encodeURIComponent(id)}`));
}

/** The base URL a directory (Entra ID's Tenant URL, Okta's SCIM connector base URL) provisions at. */
export const scimBaseUrl = (origin: string) => `${origin}/scim/v2`;
