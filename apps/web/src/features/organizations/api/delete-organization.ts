import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api';

/** DELETE /api/organizations/{id} (204) */
export function deleteOrganization(id: string): Promise<void> {
  return api.delete(`/organizations/${encodeURIComponent(id)}`);
}

export function useDeleteOrganization() {
  return useMutation({ mutationFn: deleteOrganization });
}
