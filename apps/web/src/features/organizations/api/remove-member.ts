import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { changeCount } from '../lib/tree';
import { patchTree, refreshPeople } from './cache';

/** DELETE /api/organizations/{organizationId}/members/{memberId} (204) */
export function removeMember({ organizationId, memberId }: { organizationId: string; memberId: string }): Promise<void> {
  return api.delete(`/organizations/${encodeURIComponent(organizationId)}/members/${encodeURIComponent(memberId)}`);
}

/** Removes a member: one fewer in the tree's count, and the tables reload before the call settles. */
export function useRemoveMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeMember,
    onSuccess: async (_, { organizationId }) => {
      patchTree(queryClient, (root) => changeCount(root, organizationId, 'members', -1));
      await refreshPeople(queryClient);
    },
  });
}
