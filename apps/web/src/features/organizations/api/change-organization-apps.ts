import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChangeOrganizationAppsRequest } from '@partner-portal/contracts';
import { api } from '@/lib/api';
import { setApps } from '../lib/tree';
import { patchTree, refreshPeople } from './cache';

/** PATCH /api/organizations/{id}/apps { client_ids } (204) */
export function changeOrganizationApps({ id, ...body }: ChangeOrganizationAppsRequest & { id: string }): Promise<void> {
  return api.patch(`/organizations/${encodeURIComponent(id)}/apps`, body);
}

/** Changes the organization's apps; in the tree its descendants keep only those (lib/tree.ts, setApps). */
export function useChangeOrganizationApps() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeOrganizationApps,
    onSuccess: (_, { id, client_ids }) => {
      patchTree(queryClient, (root) => setApps(root, id, client_ids));
      void refreshPeople(queryClient);
    },
  });
}
