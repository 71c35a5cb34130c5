import { queryOptions, useQuery } from '@tanstack/react-query';
import { invitationSchema, type Invitation } from '@partner-portal/contracts';
import { api } from '@/lib/api';

/** GET /api/invitations/{id}?code= (public; 404 problem for an unknown invitation or a wrong code) */
export async function getInvitation(id: string, code: string, signal?: AbortSignal): Promise<Invitation> {
  return invitationSchema.parse(await api.get<unknown>(`/invitations/${encodeURIComponent(id)}`, { query: { code }, signal, retries: 0 }));
}

export const invitationQueryOptions = (id: string, code: string) =>
  queryOptions({
    queryKey: ['invitations', id, code] as const,
    queryFn: ({ signal }) => getInvitation(id, code, signal),
    staleTime: Infinity,
    retry: false,
  });

export function useInvitation(id: string, code: string) {
  return useQuery(invitationQueryOptions(id, code));
}
