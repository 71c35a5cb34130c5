import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api';

/** PATCH /api/organizations/{id}/can-create-sub-organizations?canCreateSubOrganizations=bool (204) */
export function changeCanCreateSubOrganizations({ id, value }: { id: string; value: boolean }): Promise<void> {
  return api.patch(`/organizations/${encodeURIComponent(id)}/can-create-sub-organizations`, undefined, {
    query: { canCreateSubOrganizations: value },
  });
}

export function useChangeCanCreateSubOrganizations() {
  return useMutation({ mutationFn: changeCanCreateSubOrganizations });
}
