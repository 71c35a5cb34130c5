import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChangeRightsRequest } from '@partner-portal/contracts';
import { api } from '@/lib/api';
import { memberKeys } from './query-keys';

/** PUT /api/members/rights/{memberId} { rights } (204) */
export function changeMemberRights({ memberId, ...body }: ChangeRightsRequest & { memberId: string }): Promise<void> {
  return api.put(`/members/rights/${encodeURIComponent(memberId)}`, body);
}

/** Changes a member's rights; the next 'edit rights' reads them afresh. */
export function useChangeMemberRights() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeMemberRights,
    onSuccess: (_, { memberId }) => void queryClient.invalidateQueries({ queryKey: memberKeys.rights(memberId) }),
  });
}
