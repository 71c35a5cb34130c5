import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { memberSearchResponseSchema } from '@partner-portal/contracts';
import { pageQueryOptions } from './page-query';
import { memberKeys } from './query-keys';

/**
 * GET /api/members/search: case-insensitive e-mail substring over the organization's subtree,
 * sorted by organization path then e-mail (docs/product.md, "Limits and constants").
 */
export type MemberSearchResponse = z.infer<typeof memberSearchResponseSchema>;

export const SEARCH_PAGE_SIZE = 200;

export const memberSearchQueryOptions = (organizationId: string, q: string) =>
  pageQueryOptions<MemberSearchResponse>(memberKeys.search(organizationId, q), '/members/search', {
    organizationId,
    q,
    page: 1,
    pageSize: SEARCH_PAGE_SIZE,
  });

export function useMemberSearch(organizationId: string, q: string) {
  return useQuery({ ...memberSearchQueryOptions(organizationId, q), enabled: q.trim().length > 0, placeholderData: keepPreviousData });
}
