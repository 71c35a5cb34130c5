import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { removeNode } from '../lib/tree';
import { patchTree, refreshPeople } from './cache';
import { organizationKeys } from './query-keys';

/** DELETE /api/organizations/{id} (204) */
export function deleteOrganization(id: string): Promise<void> {
  return api.delete(`/organizations/${encodeURIComponent(id)}`);
}

/** Deletes an organization: it leaves the tree and the cache. */
export function useDeleteOrganization() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteOrganization,
    onSuccess: (_, id) => {
      patchTree(queryClient, (root) => removeNode(root, id));
      queryClient.removeQueries({ queryKey: organizationKeys.detail(id) });
      void refreshPeople(queryClient);
    },
  });
}
