import type { z } from 'zod';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type memberSearchResponseSchema, type InactiveDays, type OrganizationMember } from '@partner-portal/contracts';
import { api } from '@/lib/api';
import { patchTree, refreshPeople } from '@/features/organizations/api/cache';
import { memberKeys } from '@/features/organizations/api/query-keys';
import { changeCount } from '@/features/organizations/lib/tree';

/**
 * The members' side of the administrator's day (docs/decisions/018-the-administrators-day.md):
 * inactive members across the subtree, removing several at once, signing one out everywhere.
 */
export const INACTIVE_PAGE_SIZE = 200;

/** Under the member searches' prefix, so that every change that refreshes the searches refreshes this list too. */
export const inactiveMembersKey = (organizationId: string, days: InactiveDays) =>
  [...memberKeys.searches(), organizationId, 'inactive', days] as const;

export function useInactiveMembers(organizationId: string, days: InactiveDays | null) {
  return useQuery({
    queryKey: inactiveMembersKey(organizationId, days ?? 30),
    queryFn: async ({ signal }) =>
      await api.get<z.infer<typeof memberSearchResponseSchema>>('/members/search', {
        query: { organizationId, q: '', inactiveDays: days ?? 30, page: 1, pageSize: INACTIVE_PAGE_SIZE },
        signal,
      }),
    enabled: days !== null,
    placeholderData: keepPreviousData,
    staleTime: 5_000,
  });
}

/** POST /api/members/bulk-remove: all or none; a refusal names the member (params.member_id). */
export function useBulkRemoveMembers() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (members: readonly OrganizationMember[]) =>
      api.post<{ removed: number }>('/members/bulk-remove', { member_ids: members.map((m) => m.id) }),
    onSuccess: (_answer, members) => {
      for (const member of members) patchTree(queryClient, (root) => changeCount(root, member.organization_id, 'members', -1));
      return refreshPeople(queryClient);
    },
  });
}

/** POST /api/members/{memberId}/sign-out: ends every session and token of the member. */
export function useSignOutMember() {
  return useMutation({ mutationFn: (memberId: string) => api.post(`/members/${encodeURIComponent(memberId)}/sign-out`) });
}
