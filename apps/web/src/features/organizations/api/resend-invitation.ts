import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { refreshPeople } from './cache';

/** PUT /api/invitations/{id}/resend (204) */
export function resendInvitation(id: string): Promise<void> {
  return api.put(`/invitations/${encodeURIComponent(id)}/resend`);
}

/** Sends an invitation again; its 'last sent' date reloads. */
export function useResendInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resendInvitation,
    onSuccess: () => void refreshPeople(queryClient),
  });
}
