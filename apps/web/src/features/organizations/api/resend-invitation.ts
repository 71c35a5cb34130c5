import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { Invitation } from '@partner-portal/contracts';
import { changeCount } from '../lib/tree';
import { patchTree, refreshPeople } from './cache';

/** PUT /api/invitations/{id}/resend (204) */
export function resendInvitation(id: string): Promise<void> {
  return api.put(`/invitations/${encodeURIComponent(id)}/resend`);
}

/** Sends an invitation again; its 'last sent' date reloads; an expired one is pending again (one more in the tree's count). */
export function useResendInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (invitation: Pick<Invitation, 'invitation_id' | 'organization_id' | 'invitation_state'>) =>
      resendInvitation(invitation.invitation_id),
    onSuccess: (_, { organization_id, invitation_state }) => {
      if (invitation_state === 'EXPIRED') patchTree(queryClient, (root) => changeCount(root, organization_id, 'pending_invitations', 1));
      void refreshPeople(queryClient);
    },
  });
}
