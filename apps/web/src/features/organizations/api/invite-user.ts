import { useMutation } from '@tanstack/react-query';
import {
  invitationCreatedResponseSchema,
  invitationRequestSchema,
  type Invitation,
  type InvitationRequest,
} from '@partner-portal/contracts';
import { api } from '@/lib/api';

/** POST /api/organizations/{id}/invitations → { invitation, organizationId } */
export { invitationRequestSchema };

export async function inviteUser({
  organizationId,
  ...body
}: InvitationRequest & { organizationId: string }): Promise<{ invitation: Invitation; organizationId: string }> {
  return invitationCreatedResponseSchema.parse(
    await api.post<unknown>(`/organizations/${encodeURIComponent(organizationId)}/invitations`, body),
  );
}

export function useInviteUser() {
  return useMutation({ mutationFn: inviteUser });
}
