import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  accessRequestApprovedSchema,
  accessRequestApproveSchema,
  accessRequestCreateSchema,
  accessRequestIdParamsSchema,
  accessRequestSchema,
  organizationIdParamsSchema,
} from '@partner-portal/contracts';
import { actorRoutes, noContent, routes } from '../../http/route-kit.js';
import type { AccessRequests } from './service.js';

const tags = ['access requests'];

/** Access requests (the operating contract, "Access requests"; docs/dealer-identity.md). HTTP only: the rules live in service.ts. */
export const accessRequestRoutes: FastifyPluginAsyncZod<{ accessRequests: AccessRequests }> = async (app, { accessRequests }) => {
  const route = actorRoutes(app, tags);
  /** the routes that make their own answer (headers, redirects, no actor) */
  const handled = routes(app, tags);

  handled('POST /api/access-requests', {
    summary: 'Ask for an account (no login); always 202, whatever the address',
    description:
      'The userManagers of the organization that verified the address’s domain (or of its nearest ancestor that has any) are e-mailed ' +
      'and see the request; without such an organization the provider’s sales contact is e-mailed. An address that already has an ' +
      'account gets a reminder of how to sign in instead; one with a pending request changes nothing. Without `language_code` the request is in the browser’s language (Accept-Language), else en. All of it happens after the ' +
      'answer, which is the same for every address. Limited per address and per client (429 with Retry-After).',
    body: accessRequestCreateSchema,
    response: { 202: z.object({}) },
    problems: [400, 429],
    handler: async (request, reply) => {
      await accessRequests.ask(request.body, {
        ip: request.ip,
        requestId: request.id,
        acceptLanguage: request.headers['accept-language'],
      });
      return reply.code(202).send({});
    },
  });

  route('GET /api/organizations/:organizationId/access-requests', {
    summary: 'The pending access requests routed to the organization or its subtree, oldest first (userManager)',
    params: organizationIdParamsSchema,
    response: { 200: z.array(accessRequestSchema) },
    answer: (actor, { params }) => accessRequests.list(actor, params.organizationId),
  });

  route('PUT /api/access-requests/:id/approve', {
    summary: 'Approve a pending access request: an invitation to the request’s organization or one of the approver’s subtree (userManager)',
    description:
      'Every rule of inviting applies (allowed e-mail domains, rights the approver holds, one pending invitation per address); the ' +
      'invitation is e-mailed in the request’s language. A refused invitation leaves the request pending. 409 access_request_not_pending ' +
      'when it was already answered.',
    params: accessRequestIdParamsSchema,
    body: accessRequestApproveSchema.nullish(),
    response: { 201: accessRequestApprovedSchema },
    answer: (actor, { params, body }) => accessRequests.approve(actor, params.id, body ?? {}),
  });

  route('PUT /api/access-requests/:id/decline', {
    summary: 'Decline a pending access request; the visitor is told by e-mail in the request’s language (userManager)',
    params: accessRequestIdParamsSchema,
    response: { 204: noContent },
    answer: (actor, { params }) => accessRequests.decline(actor, params.id),
  });
};
