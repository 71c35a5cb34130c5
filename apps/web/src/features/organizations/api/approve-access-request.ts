import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { type accessRequestApprovedSchema, type AccessRequestApprove } from '@partner-portal/contracts';
import { identityKeys } from '@/features/identity/api/query-keys';
import { api } from '@/lib/api';
import { changeCount } from '../lib/tree';
import { patchTree, refreshPeople } from './cache';

/** Approve an access request (features/identity lists them): the invitation goes out (into `organization_id`, by default the request's organization); the tree counts it. */
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
