import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Organization, UpdateOrganizationRequest } from '@partner-portal/contracts';
import { api } from '@/lib/api';
import { renameNode } from '../lib/tree';
import { patchTree, refreshPeople } from './cache';

/** PATCH /api/organizations/{id} { name } */
export function updateOrganization({ id, ...body }: UpdateOrganizationRequest & { id: string }): Promise<void> {
  return api.patch(`/organizations/${encodeURIComponent(id)}`, body);
}

/** Renames `organization`; the tree shows the new name in its place among the siblings. */
export function useUpdateOrganization(organization: Pick<Organization, 'id' | 'parent_id'>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateOrganizationRequest) => updateOrganization({ id: organization.id, ...body }),
    onSuccess: (_, { name }) => {
      patchTree(queryClient, (root) => renameNode(root, organization.id, name, organization.parent_id));
      void refreshPeople(queryClient);
    },
  });
}
