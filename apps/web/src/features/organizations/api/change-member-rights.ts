import { useMutation } from '@tanstack/react-query';
import { changeRightsRequestSchema, type ChangeRightsRequest } from '@partner-portal/contracts';
import { api } from '@/lib/api';

/** PUT /api/members/rights/{memberId} { rights } (204) */
export { changeRightsRequestSchema };

export function changeMemberRights({ memberId, ...body }: ChangeRightsRequest & { memberId: string }): Promise<void> {
  return api.put(`/members/rights/${encodeURIComponent(memberId)}`, body);
}

export function useChangeMemberRights() {
  return useMutation({ mutationFn: changeMemberRights });
}
