import { useMutation } from '@tanstack/react-query';
import type { AcceptInvitationRequest } from '@partner-portal/contracts';
import { api } from '@/lib/api';

/** PUT /api/invitations/{id}/accept (204; 400 with field errors; 409 when no longer pending) */
export function acceptInvitation({ invitationId, ...body }: AcceptInvitationRequest & { invitationId: string }): Promise<void> {
  return api.put(`/invitations/${encodeURIComponent(invitationId)}/accept`, body);
}

export function useAcceptInvitation() {
  return useMutation({ mutationFn: acceptInvitation });
}
