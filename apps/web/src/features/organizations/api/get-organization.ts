import { queryOptions, useQuery } from '@tanstack/react-query';
import { type Organization } from '@partner-portal/contracts';
import { api } from '@/lib/api';
import { organizationKeys } from './query-keys';

/** GET /api/organizations/{id} */
export async function getOrganization(id: string, signal?: AbortSignal): Promise<Organization> {
  return await api.get<Organization>(`/organizations/${encodeURIComponent(id)}`, { signal });
}

export const organizationQueryOptions = (id: string) =>
  queryOptions({ queryKey: organizationKeys.detail(id), queryFn: ({ signal }) => getOrganization(id, signal), staleTime: 10_000 });

export function useOrganization(id: string | null | undefined) {
  return useQuery({ ...organizationQueryOptions(id ?? ''), enabled: !!id });
}
