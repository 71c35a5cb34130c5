import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Invitation } from '@partner-portal/contracts';
import { api } from '@/lib/api';
import { changeCount } from '../lib/tree';
import { patchTree, refreshPeople } from './cache';

/** PUT /api/invitations/{id}/revoke (204) */
export function revokeInvitation(id: string): Promise<void> {
  return api.put(`/invitations/${encodeURIComponent(id)}/revoke`);
}

/** Revokes a pending (or expired) invitation: a pending one fewer in the tree's count, and the tables reload before the call settles. */
export function useRevokeInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (invitation: Pick<Invitation, 'invitation_id' | 'organization_id' | 'invitation_state'>) =>
      revokeInvitation(invitation.invitation_id),
    onSuccess: async (_, { organization_id, invitation_state }) => {
      if (invitation_state === 'PENDING') patchTree(queryClient, (root) => changeCount(root, organization_id, 'pending_invitations', -1));
      await refreshPeople(queryClient);
    },
  });
}
