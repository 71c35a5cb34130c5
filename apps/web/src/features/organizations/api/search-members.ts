import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { memberSearchResponseSchema } from '@partner-portal/contracts';
import { api } from '@/lib/api';
import { memberKeys } from './query-keys';

/**
 * GET /api/members/search: case-insensitive e-mail substring over the organization's subtree,
 * sorted by organization path then e-mail (docs/product.md, "Limits and constants").
 */
export type MemberSearchResponse = z.infer<typeof memberSearchResponseSchema>;

export const SEARCH_PAGE_SIZE = 200;

export async function searchMembers(organizationId: string, q: string, signal?: AbortSignal): Promise<MemberSearchResponse> {
  const body = await api.get<unknown>('/members/search', { query: { organizationId, q, page: 1, pageSize: SEARCH_PAGE_SIZE }, signal });
  return memberSearchResponseSchema.parse(body);
}

export const memberSearchQueryOptions = (organizationId: string, q: string) =>
  queryOptions({
    queryKey: memberKeys.search(organizationId, q),
    queryFn: ({ signal }) => searchMembers(organizationId, q, signal),
    staleTime: 5_000,
  });

export function useMemberSearch(organizationId: string, q: string) {
  return useQuery({ ...memberSearchQueryOptions(organizationId, q), enabled: q.trim().length > 0, placeholderData: keepPreviousData });
}
