import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AuditStream,
  AuditStreamCreate,
  AuditStreamCreated,
  AuditStreamPatch,
  AuditStreamReplay,
  AuditStreamReplayed,
} from '@partner-portal/contracts';
import { api } from '@/lib/api';
import { integrationKeys } from './query-keys';

/**
 * Audit streams of an organization (the operating contract, "Audit streams"): listed with their
 * state and without tokens or secrets, made (an https stream's signing secret in the answer only),
 * paused, resumed or changed, replayed from a time, deleted. A change refetches the list.
 */
const base = (organizationId: string) => `/organizations/${encodeURIComponent(organizationId)}/audit-streams`;
const streamPath = (organizationId: string, id: string) => `${base(organizationId)}/${encodeURIComponent(id)}`;
const streamsKey = (organizationId: string) => [...integrationKeys.all, 'audit-streams', organizationId] as const;

export function useAuditStreams(organizationId: string) {
  return useQuery({
    queryKey: streamsKey(organizationId),
    queryFn: async ({ signal }) => await api.get<AuditStream[]>(base(organizationId), { signal }),
    staleTime: 5_000,
    // the state (failing, active again) and the last delivered entry change without the reader
    refetchInterval: 15_000,
  });
}

function useStreamChange<Variables, Answer>(organizationId: string, mutationFn: (variables: Variables) => Promise<Answer>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: streamsKey(organizationId) }),
  });
}

/** POST …/audit-streams → its id, and an https stream's signing secret (whsec_…, shown this once). */
export function useCreateAuditStream(organizationId: string) {
  return useStreamChange(organizationId, async (body: AuditStreamCreate) => await api.post<AuditStreamCreated>(base(organizationId), body));
}

/** PATCH …/audit-streams/{id}: paused (false resumes), URL, token, description. */
export function useUpdateAuditStream(organizationId: string) {
  return useStreamChange(
    organizationId,
    async ({ id, ...body }: AuditStreamPatch & { id: string }) => await api.patch(streamPath(organizationId, id), body),
  );
}

/** DELETE …/audit-streams/{id}, with what it had not sent yet. */
export function useDeleteAuditStream(organizationId: string) {
  return useStreamChange(organizationId, (id: string) => api.delete(streamPath(organizationId, id)));
}

/** POST …/audit-streams/{id}/replay: the entries from a time sent again, after what is pending. */
export function useReplayAuditStream(organizationId: string) {
  return useStreamChange(
    organizationId,
    async ({ id, ...body }: AuditStreamReplay & { id: string }) =>
      await api.post<AuditStreamReplayed>(`${streamPath(organizationId, id)}/replay`, body),
  );
}
