import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { type memberRightsResponseSchema, toRights } from '@partner-portal/contracts';
import { api } from '@/lib/api';
import { memberKeys } from './query-keys';

/** GET /api/members/rights/{memberId} */
export type MemberRights = z.infer<typeof memberRightsResponseSchema>;

export async function getMemberRights(memberId: string, signal?: AbortSignal): Promise<MemberRights> {
  const body = await api.get<Record<string, unknown>>(`/members/rights/${encodeURIComponent(memberId)}`, { signal });
  return { ...body, rights: toRights(body.rights) } as z.infer<typeof memberRightsResponseSchema>;
}

export const memberRightsQueryOptions = (memberId: string) =>
  queryOptions({ queryKey: memberKeys.rights(memberId), queryFn: ({ signal }) => getMemberRights(memberId, signal), staleTime: 0 });

export function useMemberRights(memberId: string) {
  return useQuery(memberRightsQueryOptions(memberId));
}
