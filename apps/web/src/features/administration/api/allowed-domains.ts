import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';

/** PUT /api/organizations/{id}/allowed-email-domains (provider administrators; an empty list: any domain). */
export async function updateAllowedDomains(organizationId: string, domains: string[]): Promise<void> {
  await api.put(`/organizations/${organizationId}/allowed-email-domains`, { allowed_email_domains: domains });
}

export function useUpdateAllowedDomains() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ organizationId, domains }: { organizationId: string; domains: string[] }) =>
      updateAllowedDomains(organizationId, domains),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['organizations'] }),
  });
}
