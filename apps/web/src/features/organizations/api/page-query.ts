import { queryOptions, type QueryKey } from '@tanstack/react-query';
import { api } from '@/lib/api';

/**
 * A GET of one page of a list, fresh for 5 s: the member search and the audit trail's pages. The
 * answer is used as its contract types it: the server checks every answer against the contract's
 * schema before it leaves (fastify-type-provider-zod), and the web app does not parse it again
 * (docs/decisions/022-login-and-manage-bundles.md).
 */
export function pageQueryOptions<Answer, Key extends QueryKey = QueryKey>(
  queryKey: Key,
  path: string,
  query: Record<string, string | number>,
) {
  return queryOptions({
    queryKey,
    queryFn: ({ signal }): Promise<Answer> => api.get<Answer>(path, { query, signal }),
    staleTime: 5_000,
  });
}
