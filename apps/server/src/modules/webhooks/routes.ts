import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  organizationIdParamsSchema,
  webhookCreatedSchema,
  webhookCreateSchema,
  webhookDeliveriesQuerySchema,
  webhookDeliveriesResponseSchema,
  webhookDeliveryParamsSchema,
  webhookParamsSchema,
  webhookPatchSchema,
  webhookRetryResponseSchema,
  webhookSchema,
} from '@partner-portal/contracts';
import { actorRoutes, noContent } from '../../http/route-kit.js';
import type { Webhooks } from './service.js';

/** Webhooks (docs/integrations.md, "Webhooks"). HTTP only: the rules live in service.ts. */
export const webhookRoutes: FastifyPluginAsyncZod<{ webhooks: Webhooks }> = async (app, { webhooks }) => {
  const route = actorRoutes(app, ['webhooks']);

  route('GET /api/organizations/:organizationId/webhooks', {
    summary: 'The organization’s webhooks (organizationManager of the organization or an ancestor); secrets are never returned',
    params: organizationIdParamsSchema,
    response: { 200: z.array(webhookSchema) },
    answer: (actor, { params }) => webhooks.list(actor, params.organizationId),
  });

  route('POST /api/organizations/:organizationId/webhooks', {
    summary: 'Subscribe a URL to events of the organization and its subtree; the signing secret (whsec_…) is answered once',
    description:
      'Events: any of organization.created, organization.updated, organization.deleted, member.created, member.updated, member.removed, ' +
      'member.deactivated, member.reactivated, invitation.created, invitation.accepted, invitation.revoked, invitation.expired, or ["*"]. ' +
      'Deliveries are POST requests signed as Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature), retried until ' +
      'answered 2xx. In production a URL in a private network is refused (400, webhook_url_not_allowed) unless OUTBOUND_ALLOW_PRIVATE_NETWORKS=true.',
    params: organizationIdParamsSchema,
    body: webhookCreateSchema,
    response: { 201: webhookCreatedSchema },
    answer: (actor, { params, body }) => webhooks.create(actor, params.organizationId, body),
  });

  route('PATCH /api/organizations/:organizationId/webhooks/:webhookId', {
    summary: 'Change a webhook’s URL, events or description (the secret stays)',
    params: webhookParamsSchema,
    body: webhookPatchSchema,
    response: { 200: webhookSchema },
    answer: (actor, { params, body }) => webhooks.update(actor, params.organizationId, params.webhookId, body),
  });

  route('DELETE /api/organizations/:organizationId/webhooks/:webhookId', {
    summary: 'Delete a webhook and its deliveries',
    params: webhookParamsSchema,
    response: { 204: noContent },
    answer: (actor, { params }) => webhooks.delete(actor, params.organizationId, params.webhookId),
  });

  route('GET /api/organizations/:organizationId/webhooks/:webhookId/deliveries', {
    summary: 'The webhook’s deliveries, newest first, 50 a page, each with every attempt (status, duration, error)',
    params: webhookParamsSchema,
    querystring: webhookDeliveriesQuerySchema,
    response: { 200: webhookDeliveriesResponseSchema },
    answer: (actor, { params, query }) => webhooks.deliveries(actor, params.organizationId, params.webhookId, query),
  });

  route('POST /api/organizations/:organizationId/webhooks/:webhookId/deliveries/:deliveryId/retry', {
    summary: 'Send a delivery again, at once and with the same webhook-id (202: the worker sends it)',
    params: webhookDeliveryParamsSchema,
    response: { 202: webhookRetryResponseSchema },
    answer: (actor, { params }) => webhooks.retry(actor, params.organizationId, params.webhookId, params.deliveryId),
  });
};
