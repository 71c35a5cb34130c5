import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import {
  type domainVerifyResponseSchema,
  type DomainClaimRequest,
  type OrganizationDomain,
  type DomainClaimResponse,
} from '@partner-portal/contracts';
import { api } from '@/lib/api';
import { identityKeys } from './query-keys';

/**
 * Verified domains of an organization (the operating contract, "Verified domains"): its own and
 * its ancestors' (organization_id tells), claimed, verified by a DNS TXT record, deleted. A change
 * refetches every organization's list: a child shows its ancestors' domains.
 */
const base = (organizationId: string) => `/organizations/${encodeURIComponent(organizationId)}/domains`;
const domainPath = (organizationId: string, domain: string) => `${base(organizationId)}/${encodeURIComponent(domain)}`;

export function useDomains(organizationId: string, enabled: boolean) {
  return useQuery({
    queryKey: identityKeys.domains(organizationId),
    queryFn: async ({ signal }) => await api.get<OrganizationDomain[]>(base(organizationId), { signal }),
    enabled,
    staleTime: 10_000,
  });
}

function useDomainChange<Variables, Answer>(mutationFn: (variables: Variables) => Promise<Answer>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: identityKeys.domainLists() }),
        // a connection may only use verified domains: its form offers them
        queryClient.invalidateQueries({ queryKey: identityKeys.connectionLists() }),
      ]),
  });
}

/** POST …/domains → the claim with the TXT record to publish. */
export function useClaimDomain(organizationId: string) {
  return useDomainChange(async (body: DomainClaimRequest) => await api.post<DomainClaimResponse>(base(organizationId), body));
}

/** POST …/domains/{domain}/verify → verified, or 409 domain_verification_failed. */
export function useVerifyDomain(organizationId: string) {
  return useDomainChange(
    async (domain: string) => await api.post<z.infer<typeof domainVerifyResponseSchema>>(`${domainPath(organizationId, domain)}/verify`),
  );
}

/** DELETE …/domains/{domain} (the organization's own domains). */
export function useDeleteDomain(organizationId: string) {
  return useDomainChange((domain: string) => api.delete(domainPath(organizationId, domain)));
}
