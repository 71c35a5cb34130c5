import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { refreshPeople } from './cache';

/** DELETE /api/members/{memberId}/second-factors (204): a lost phone (docs/second-factors.md). */
export function resetSecondFactors(memberId: string): Promise<void> {
  return api.delete(`/members/${encodeURIComponent(memberId)}/second-factors`);
}

/** Resets a member's second factors; the tables reload (the member's second-factor mark goes) before the call settles. */
export function useResetSecondFactors() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resetSecondFactors,
    onSuccess: () => refreshPeople(queryClient),
  });
}
