import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api';

/** DELETE /api/organizations/{organizationId}/members/{memberId} (204) */
export function removeMember({ organizationId, memberId }: { organizationId: string; memberId: string }): Promise<void> {
  return api.delete(`/organizations/${encodeURIComponent(organizationId)}/members/${encodeURIComponent(memberId)}`);
}

export function useRemoveMember() {
  return useMutation({ mutationFn: removeMember });
}
