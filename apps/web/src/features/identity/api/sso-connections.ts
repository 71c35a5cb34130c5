import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import {
  type ssoConnectionCreatedSchema,
  type SsoConnectionCreate,
  type SsoConnectionPatch,
  type SsoConnection,
  type SsoConnectionMembers,
} from '@partner-portal/contracts';
import { api } from '@/lib/api';
import { identityKeys } from './query-keys';

/**
 * Single sign-on connections of an organization (the operating contract, "Single sign-on per
 * organization"): its own and inherited ones (organization_id tells; the EXTERNAL_IDP_* one is
 * `configured`). Secrets are never returned. A change refetches every organization's list.
 */
const base = (organizationId: string) => `/organizations/${encodeURIComponent(organizationId)}/sso-connections`;
const connectionPath = (organizationId: string, id: string) => `${base(organizationId)}/${encodeURIComponent(id)}`;

export function useSsoConnections(organizationId: string, enabled: boolean) {
  return useQuery({
    queryKey: identityKeys.connections(organizationId),
    queryFn: async ({ signal }) => await api.get<SsoConnection[]>(base(organizationId), { signal }),
    enabled,
    staleTime: 10_000,
  });
}

function useConnectionChange<Variables, Answer>(mutationFn: (variables: Variables) => Promise<Answer>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => queryClient.invalidateQueries({ queryKey: identityKeys.connectionLists() }) });
}

export function useCreateSsoConnection(organizationId: string) {
  return useConnectionChange(
    async (body: SsoConnectionCreate) => await api.post<z.infer<typeof ssoConnectionCreatedSchema>>(base(organizationId), body),
  );
}

export function useUpdateSsoConnection(organizationId: string) {
  return useConnectionChange(({ id, ...body }: SsoConnectionPatch & { id: string }) => api.patch(connectionPath(organizationId, id), body));
}

/** Who signs in through a connection once it is active (its managers look before switching it on, off or deleting it). */
export function useSsoConnectionMembers(organizationId: string, connectionId: string) {
  return useQuery({
    queryKey: [...identityKeys.connections(organizationId), connectionId, 'members'],
    queryFn: async ({ signal }) =>
      await api.get<SsoConnectionMembers>(`${connectionPath(organizationId, connectionId)}/members`, { signal }),
    staleTime: 0,
  });
}

export function useDeleteSsoConnection(organizationId: string) {
  return useConnectionChange((id: string) => api.delete(connectionPath(organizationId, id)));
}

/** Where the dealer registers the portal at its identity provider: the portal's callback. */
export const ssoRedirectUri = (origin: string) => `${origin}/api/identity/login-external-callback`;

/**
 * The manager's test sign-in (a browser navigation, no X-CSRF): through the connection's provider
 * and back to `returnPath` with ?sso_test=ok&sso_test_email=… or ?sso_test=<error key>.
 */
export const ssoTestUrl = (connectionId: string, returnPath: string) =>
  `/api/identity/challenge-external-login?${new URLSearchParams({ connection: connectionId, test: '1', returnPath }).toString()}`;
