import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { type accessRequestApprovedSchema, type AccessRequestApprove, type AccessRequest } from '@partner-portal/contracts';
import { api } from '@/lib/api';
import { changeCount } from '../lib/tree';
import { patchTree, refreshPeople } from './cache';
import { identityKeys } from './query-keys';

/**
 * Access requests (the operating contract, "Access requests"): the pending requests routed to the
 * organization's subtree, oldest first, for its userManagers; approve (an invitation) or decline.
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

/** Approve: the invitation goes out (into `organization_id`, by default the request's organization); the tree counts it. */
export function useApproveAccessRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, ...body }: AccessRequestApprove & { id: string; organization_id: string }) =>
      await api.put<z.infer<typeof accessRequestApprovedSchema>>(`/access-requests/${encodeURIComponent(id)}/approve`, body),
    onSuccess: (_answer, { organization_id }) => {
      patchTree(queryClient, (root) => changeCount(root, organization_id, 'pending_invitations', 1));
      return Promise.all([queryClient.invalidateQueries({ queryKey: identityKeys.accessRequestLists() }), refreshPeople(queryClient)]);
    },
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
