import { api } from '@/lib/api';
import { setCanCreateSubOrganizations } from '../lib/tree';
import { useTreeChange } from './cache';

/** PATCH /api/organizations/{id}/can-create-sub-organizations?canCreateSubOrganizations=bool (204) */
export function changeCanCreateSubOrganizations({ id, value }: { id: string; value: boolean }): Promise<void> {
  return api.patch(`/organizations/${encodeURIComponent(id)}/can-create-sub-organizations`, undefined, {
    query: { canCreateSubOrganizations: value },
  });
}

/** Switches creating sub-organizations on or off; off also reaches the descendants in the tree (lib/tree.ts). */
export const useChangeCanCreateSubOrganizations = () =>
  useTreeChange(changeCanCreateSubOrganizations, (root, { id, value }) => setCanCreateSubOrganizations(root, id, value));
