import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  webhookRetryResponseSchema,
  Webhook,
  WebhookCreate,
  WebhookCreated,
  WebhookDeliveries,
  WebhookPatch,
} from '@partner-portal/contracts';
import { api } from '@/lib/api';
import { integrationKeys } from './query-keys';

/**
 * Webhooks of an organization (the operating contract, "Webhooks"): listed without secrets, made
 * with the signing secret in the answer only, changed, deleted; each one's deliveries, newest first,
 * and a delivery sent again. A change refetches the list.
 */
const base = (organizationId: string) => `/organizations/${encodeURIComponent(organizationId)}/webhooks`;
const webhookPath = (organizationId: string, id: string) => `${base(organizationId)}/${encodeURIComponent(id)}`;

export function useWebhooks(organizationId: string) {
  return useQuery({
    queryKey: integrationKeys.webhooks(organizationId),
    queryFn: async ({ signal }) => await api.get<Webhook[]>(base(organizationId), { signal }),
    staleTime: 10_000,
  });
}

function useWebhookChange<Variables, Answer>(organizationId: string, mutationFn: (variables: Variables) => Promise<Answer>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: integrationKeys.webhooks(organizationId) }),
  });
}

/** POST …/webhooks → its id and signing secret (whsec_…, shown this once). */
export function useCreateWebhook(organizationId: string) {
  return useWebhookChange(organizationId, async (body: WebhookCreate) => await api.post<WebhookCreated>(base(organizationId), body));
}

/** PATCH …/webhooks/{id}: URL, events, description; the secret stays. */
export function useUpdateWebhook(organizationId: string) {
  return useWebhookChange(
    organizationId,
    async ({ id, ...body }: WebhookPatch & { id: string }) => await api.patch<Webhook>(webhookPath(organizationId, id), body),
  );
}

/** DELETE …/webhooks/{id}, with its deliveries. */
export function useDeleteWebhook(organizationId: string) {
  return useWebhookChange(organizationId, (id: string) => api.delete(webhookPath(organizationId, id)));
}

/** The webhook's latest deliveries (the first page: 50, newest first), each with its attempts. */
export function useWebhookDeliveries(organizationId: string, webhookId: string) {
  return useQuery({
    queryKey: integrationKeys.deliveries(webhookId),
    queryFn: async ({ signal }) => await api.get<WebhookDeliveries>(`${webhookPath(organizationId, webhookId)}/deliveries`, { signal }),
    staleTime: 2_000,
  });
}

/** POST …/deliveries/{deliveryId}/retry: sent again at once by the server's worker; the list is refetched. */
export function useRetryDelivery(organizationId: string, webhookId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (deliveryId: string) =>
      await api.post<z.infer<typeof webhookRetryResponseSchema>>(
        `${webhookPath(organizationId, webhookId)}/deliveries/${encodeURIComponent(deliveryId)}/retry`,
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: integrationKeys.deliveries(webhookId) }),
  });
}
