import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type AccessRequest } from '@partner-portal/contracts';
import { api } from '@/lib/api';
import { identityKeys } from './query-keys';

/**
 * Access requests (the operating contract, "Access requests"): the pending requests routed to the
 * organization's subtree, oldest first, for its userManagers; decline one. Approving one
 * invites into the organization tree: features/organizations/api/approve-access-request.ts.
 */
export function useAccessRequests(organizationId: string, enabled: boolean) {
  return useQuery({
    queryKey: identityKeys.accessRequests(organizationId),
    queryFn: async ({ signal }) =>
      await api.get<AccessRequest[]>(`/organizations/${encodeURIComponent(organizationId)}/access-requests`, { signal }),
    enabled,
    staleTime: 10_000,
  });
}

/** Decline: the requester is told by e-mail. */
export function useDeclineAccessRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.put(`/access-requests/${encodeURIComponent(id)}/decline`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: identityKeys.accessRequestLists() }),
  });
}
