import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SupportAccess, SupportSessionCreated, SupportSessionRequest } from '@partner-portal/contracts';
import { api } from '@/lib/api';

/**
 * Support access and support sessions (docs/api.md, "Support sessions"): GET and PUT
 * /api/organizations/{id}/support-access, POST /api/members/{id}/support-sessions.
 */
const supportAccessKey = (id: string) => ['organizations', 'support-access', id] as const;

export const supportAccessQueryOptions = (id: string) =>
  queryOptions({
    queryKey: supportAccessKey(id),
    queryFn: async ({ signal }) => await api.get<SupportAccess>(`/organizations/${encodeURIComponent(id)}/support-access`, { signal }),
    staleTime: 10_000,
  });

export function useSupportAccess(id: string, enabled: boolean) {
  return useQuery({ ...supportAccessQueryOptions(id), enabled });
}

/** Allow or refuse; every organization's effective consent below may change: all are read again. */
export function useSetSupportAccess(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (allowed: boolean) => await api.put(`/organizations/${encodeURIComponent(id)}/support-access`, { allowed }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['organizations', 'support-access'] });
    },
  });
}

/** Make a support session as a member; its url, opened in this browser, starts it. */
export const createSupportSession = (memberId: string, body: SupportSessionRequest) =>
  api.post<SupportSessionCreated>(`/members/${encodeURIComponent(memberId)}/support-sessions`, body);
