import type { z } from 'zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type invitationCreatedResponseSchema, type Invitation, type InvitationRequest } from '@partner-portal/contracts';
import { api } from '@/lib/api';
import { changeCount } from '../lib/tree';
import { patchTree, refreshPeople } from './cache';

/** POST /api/organizations/{id}/invitations → { invitation, organizationId } */
export async function inviteUser({
  organizationId,
  ...body
}: InvitationRequest & { organizationId: string }): Promise<{ invitation: Invitation; organizationId: string }> {
  return await api.post<z.infer<typeof invitationCreatedResponseSchema>>(
    `/organizations/${encodeURIComponent(organizationId)}/invitations`,
    body,
  );
}

/** Invites a user: one more pending invitation in the tree's count, and the tables reload. */
export function useInviteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: inviteUser,
    onSuccess: ({ invitation }) => {
      patchTree(queryClient, (root) => changeCount(root, invitation.organization_id, 'pending_invitations', 1));
      void refreshPeople(queryClient);
    },
  });
}
