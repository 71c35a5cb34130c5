import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api';

/** PUT /api/invitations/{id}/revoke (204) */
export function revokeInvitation(id: string): Promise<void> {
  return api.put(`/invitations/${encodeURIComponent(id)}/revoke`);
}

export function useRevokeInvitation() {
  return useMutation({ mutationFn: revokeInvitation });
}
