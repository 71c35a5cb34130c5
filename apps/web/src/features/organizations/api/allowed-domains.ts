import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { patchTree } from '@/features/organizations/api/cache';
import { organizationKeys } from '@/features/organizations/api/query-keys';
import { updateNode } from '@/features/organizations/lib/tree';

/** PUT /api/organizations/{id}/allowed-email-domains (provider administrators; an empty list: any domain). */
export async function updateAllowedDomains(organizationId: string, domains: string[]): Promise<void> {
  await api.put(`/organizations/${organizationId}/allowed-email-domains`, { allowed_email_domains: domains });
}

export function useUpdateAllowedDomains() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ organizationId, domains }: { organizationId: string; domains: string[] }) =>
      updateAllowedDomains(organizationId, domains),
    onSuccess: (_answer, { organizationId, domains }) => {
      patchTree(queryClient, (root) => updateNode(root, organizationId, (node) => ({ ...node, allowed_email_domains: domains })));
      return queryClient.invalidateQueries({ queryKey: organizationKeys.detail(organizationId) });
    },
  });
}
