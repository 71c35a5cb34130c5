import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type SecondFactorPolicy } from '@partner-portal/contracts';
import { api } from '@/lib/api';
import { organizationKeys } from './query-keys';

/**
 * GET and PUT /api/organizations/{id}/second-factor-policy (docs/second-factors.md, "The policy
 * that follows the tree"): the effective requirement of an organization and where it comes from.
 */

export const secondFactorPolicyQueryOptions = (id: string) =>
  queryOptions({
    queryKey: organizationKeys.secondFactorPolicy(id),
    queryFn: async ({ signal }) =>
      await api.get<SecondFactorPolicy>(`/organizations/${encodeURIComponent(id)}/second-factor-policy`, { signal }),
    staleTime: 10_000,
  });

export function useSecondFactorPolicy(id: string, enabled: boolean) {
  return useQuery({ ...secondFactorPolicyQueryOptions(id), enabled });
}

/**
 * Require (or lift) the requirement; the whole subtree's effective policy may change, so every
 * cached one is refetched, and the tree, which marks where requirements are set.
 */
export function useSetSecondFactorPolicy(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (required: boolean) =>
      await api.put<SecondFactorPolicy>(`/organizations/${encodeURIComponent(id)}/second-factor-policy`, { required }),
    onSuccess: async (policy: SecondFactorPolicy) => {
      queryClient.setQueryData(organizationKeys.secondFactorPolicy(id), policy);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: organizationKeys.secondFactorPolicies(), predicate: (q) => q.queryKey[2] !== id }),
        queryClient.invalidateQueries({ queryKey: organizationKeys.tree() }),
      ]);
    },
  });
}

/** Whether a requirement comes from the provider's root organization (a path without a parent segment). */
export const isProviderWide = (source: { organization_path: string } | null) => source !== null && !source.organization_path.includes('/');
