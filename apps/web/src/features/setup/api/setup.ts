import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  DomainClaimResponse,
  OrganizationDomain,
  ScimTokenCreated,
  SetupLinkInfo,
  SsoConnection,
  SsoConnectionCreate,
} from '@partner-portal/contracts';
import { api } from '@/lib/api';

/**
 * The setup page's calls (docs/api.md, "Setup links"): the link itself (/api/setup/{token}), its
 * one-time code and session, then, with the setup session's cookie, the same calls a manager
 * makes for the link's capabilities on its organization.
 */
const link = (token: string) => `/setup/${encodeURIComponent(token)}`;
const org = (organizationId: string) => `/organizations/${encodeURIComponent(organizationId)}`;

export const setupKeys = {
  all: ['setup'] as const,
  link: (token: string) => [...setupKeys.all, 'link', token] as const,
  domains: (organizationId: string) => [...setupKeys.all, 'domains', organizationId] as const,
  connections: (organizationId: string) => [...setupKeys.all, 'connections', organizationId] as const,
};

export function useSetupLink(token: string) {
  return useQuery({
    queryKey: setupKeys.link(token),
    queryFn: async ({ signal }) => await api.get<SetupLinkInfo>(link(token), { signal, retries: 0 }),
    retry: false,
  });
}

/** POST /api/setup/{token}/code — a code to the link's address (limited: 429). */
export const sendSetupCode = (token: string) => api.post(`${link(token)}/code`, undefined, { retries: 0 });

/** POST /api/setup/{token}/session — the code for the setup session's cookie; the link is read again. */
export function useOpenSetupSession(token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => api.post(`${link(token)}/session`, { code }, { retries: 0 }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: setupKeys.link(token) }),
  });
}

export function useSetupDomains(organizationId: string) {
  return useQuery({
    queryKey: setupKeys.domains(organizationId),
    queryFn: async ({ signal }) => await api.get<OrganizationDomain[]>(`${org(organizationId)}/domains`, { signal }),
  });
}

function useChange<V, A>(organizationId: string, mutationFn: (variables: V) => Promise<A>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: setupKeys.domains(organizationId) });
      await queryClient.invalidateQueries({ queryKey: setupKeys.connections(organizationId) });
    },
  });
}

export const useClaimDomain = (organizationId: string) =>
  useChange(organizationId, async (domain: string) => await api.post<DomainClaimResponse>(`${org(organizationId)}/domains`, { domain }));

export const useVerifyDomain = (organizationId: string) =>
  useChange(organizationId, (domain: string) => api.post(`${org(organizationId)}/domains/${encodeURIComponent(domain)}/verify`));

export function useSetupConnections(organizationId: string) {
  return useQuery({
    queryKey: setupKeys.connections(organizationId),
    queryFn: async ({ signal }) => await api.get<SsoConnection[]>(`${org(organizationId)}/sso-connections`, { signal }),
  });
}

export const useCreateConnection = (organizationId: string) =>
  useChange(
    organizationId,
    async (body: SsoConnectionCreate) => await api.post<{ id: string }>(`${org(organizationId)}/sso-connections`, body),
  );

export const useSwitchOnConnection = (organizationId: string) =>
  useChange(organizationId, (id: string) =>
    api.patch(`${org(organizationId)}/sso-connections/${encodeURIComponent(id)}`, { active: true }),
  );

export const useCreateScimToken = (organizationId: string) =>
  useChange(organizationId, async (name: string) => await api.post<ScimTokenCreated>(`${org(organizationId)}/scim-tokens`, { name }));
