import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api';

/** PUT /api/invitations/{id}/resend (204) */
export function resendInvitation(id: string): Promise<void> {
  return api.put(`/invitations/${encodeURIComponent(id)}/resend`);
}

export function useResendInvitation() {
  return useMutation({ mutationFn: resendInvitation });
}
