import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  auditStreamCreatedSchema,
  auditStreamCreateSchema,
  auditStreamParamsSchema,
  auditStreamPatchSchema,
  auditStreamReplayedSchema,
  auditStreamReplaySchema,
  auditStreamSchema,
  organizationIdParamsSchema,
} from '@partner-portal/contracts';
import { actorRoutes, noContent } from '../../http/route-kit.js';
import type { AuditStreams } from './service.js';

/** Audit streams (docs/integrations.md, "Audit streams"). HTTP only: the rules live in service.ts. */
export const auditStreamRoutes: FastifyPluginAsyncZod<{ auditStreams: AuditStreams }> = async (app, { auditStreams }) => {
  const route = actorRoutes(app, ['audit streams']);

  route('GET /api/organizations/:organizationId/audit-streams', {
    summary:
      'The organization’s audit streams with their state (organizationManager of the organization or an ancestor; people only); tokens and secrets are never returned',
    params: organizationIdParamsSchema,
    response: { 200: z.array(auditStreamSchema) },
    answer: (actor, { params }) => auditStreams.list(actor, params.organizationId),
  });

  route('POST /api/organizations/:organizationId/audit-streams', {
    summary:
      'Send every audit entry of the organization and its subtree to a log system; an https stream’s signing secret (whsec_…) is answered once',
    description:
      'Kinds: `https` (POST signed as Standard Webhooks, body {type: "audit.entry", timestamp, data}), `splunk_hec` (HEC events, ' +
      '`Authorization: Splunk <token>`), `datadog` (logs intake, `DD-API-KEY: <token>`); `token` is required for the last two. ' +
      'Entries are sent in order, at least once; a receiver that fails is retried (first after WEBHOOK_RETRY_BASE_SECONDS) and never given up, ' +
      'later entries waiting behind. In production a URL in a private network is refused (400, audit_stream_url_not_allowed) unless OUTBOUND_ALLOW_PRIVATE_NETWORKS=true.',
    params: organizationIdParamsSchema,
    body: auditStreamCreateSchema,
    response: { 201: auditStreamCreatedSchema },
    answer: (actor, { params, body }) => auditStreams.create(actor, params.organizationId, body),
  });

  route('PATCH /api/organizations/:organizationId/audit-streams/:streamId', {
    summary:
      'Pause or resume a stream (a paused stream keeps its entries and sends them when resumed), change its URL, token or description',
    params: auditStreamParamsSchema,
    body: auditStreamPatchSchema,
    response: { 204: noContent },
    answer: (actor, { params, body }) => auditStreams.update(actor, params.organizationId, params.streamId, body),
  });

  route('DELETE /api/organizations/:organizationId/audit-streams/:streamId', {
    summary: 'Delete a stream with the entries it has not sent yet',
    params: auditStreamParamsSchema,
    response: { 204: noContent },
    answer: (actor, { params }) => auditStreams.delete(actor, params.organizationId, params.streamId),
  });

  route('POST /api/organizations/:organizationId/audit-streams/:streamId/replay', {
    summary: 'Send again every entry of the subtree from a time (ISO 8601), in order, after what is pending (202: the worker sends them)',
    params: auditStreamParamsSchema,
    body: auditStreamReplaySchema,
    response: { 202: auditStreamReplayedSchema },
    answer: (actor, { params, body }) => auditStreams.replay(actor, params.organizationId, params.streamId, body),
  });
};
