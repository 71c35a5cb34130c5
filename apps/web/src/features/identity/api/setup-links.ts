import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ConnectionPolicy, ConnectionPolicyUpdate, SetupLink, SetupLinkCreate, SetupLinkCreated } from '@partner-portal/contracts';
import { api } from '@/lib/api';

/**
 * The connection policy and setup links of an organization (the operating contract, "Setup links
 * for a dealer's IT person"): the policy read and set; links listed, made (the url in the answer
 * and the e-mail only) and revoked. A change refetches what it changed.
 */
const org = (organizationId: string) => `/organizations/${encodeURIComponent(organizationId)}`;

export const setupLinkKeys = {
  all: ['setup-links'] as const,
  policies: () => [...setupLinkKeys.all, 'connection-policy'] as const,
  policy: (organizationId: string) => [...setupLinkKeys.policies(), organizationId] as const,
  lists: () => [...setupLinkKeys.all, 'links'] as const,
  links: (organizationId: string) => [...setupLinkKeys.lists(), organizationId] as const,
};

export function useConnectionPolicy(organizationId: string) {
  return useQuery({
    queryKey: setupLinkKeys.policy(organizationId),
    queryFn: async ({ signal }) => await api.get<ConnectionPolicy>(`${org(organizationId)}/connection-policy`, { signal }),
    staleTime: 10_000,
  });
}

/** PUT …/connection-policy: every organization's policy may change with it (those below inherit). */
export function useSetConnectionPolicy(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ConnectionPolicyUpdate) => api.put(`${org(organizationId)}/connection-policy`, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: setupLinkKeys.policies() }),
  });
}

export function useSetupLinks(organizationId: string) {
  return useQuery({
    queryKey: setupLinkKeys.links(organizationId),
    queryFn: async ({ signal }) => await api.get<SetupLink[]>(`${org(organizationId)}/setup-links`, { signal }),
    staleTime: 10_000,
  });
}

export function useCreateSetupLink(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: SetupLinkCreate) => await api.post<SetupLinkCreated>(`${org(organizationId)}/setup-links`, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: setupLinkKeys.links(organizationId) }),
  });
}

export function useRevokeSetupLink(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete(`${org(organizationId)}/setup-links/${encodeURIComponent(id)}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: setupLinkKeys.links(organizationId) }),
  });
}
