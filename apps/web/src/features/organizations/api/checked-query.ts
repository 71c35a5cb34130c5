import { queryOptions, type QueryKey } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '@/lib/api';

/**
 * A GET whose answer is checked against its contract schema (packages/contracts) before use,
 * fresh for 5 s: the member search and the audit trail's pages.
 */
export function checkedQueryOptions<Schema extends z.ZodType, Key extends QueryKey>(
  queryKey: Key,
  path: string,
  schema: Schema,
  query: Record<string, string | number>,
) {
  return queryOptions({
    queryKey,
    queryFn: async ({ signal }): Promise<z.infer<Schema>> => schema.parse(await api.get<unknown>(path, { query, signal })),
    staleTime: 5_000,
  });
}
