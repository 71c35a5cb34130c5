import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { setCanCreateSubOrganizations } from '../lib/tree';
import { patchTree, refreshPeople } from './cache';

/** PATCH /api/organizations/{id}/can-create-sub-organizations?canCreateSubOrganizations=bool (204) */
export function changeCanCreateSubOrganizations({ id, value }: { id: string; value: boolean }): Promise<void> {
  return api.patch(`/organizations/${encodeURIComponent(id)}/can-create-sub-organizations`, undefined, {
    query: { canCreateSubOrganizations: value },
  });
}

/** Switches creating sub-organizations on or off; off also reaches the descendants in the tree (lib/tree.ts). */
export function useChangeCanCreateSubOrganizations() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeCanCreateSubOrganizations,
    onSuccess: (_, { id, value }) => {
      patchTree(queryClient, (root) => setCanCreateSubOrganizations(root, id, value));
      void refreshPeople(queryClient);
    },
  });
}
