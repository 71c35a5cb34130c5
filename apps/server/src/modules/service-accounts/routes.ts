import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  organizationIdParamsSchema,
  serviceAccountCreatedSchema,
  serviceAccountCreateSchema,
  serviceAccountParamsSchema,
  serviceAccountSchema,
} from '@partner-portal/contracts';
import { ACTOR_ROUTE, actorRoutes, CHANGE_PROBLEMS, noContent, routes } from '../../http/route-kit.js';
import type { ServiceAccounts } from './service.js';

const tags = ['service accounts'];

/** Service accounts of an organization (docs/integrations.md, "Service accounts"). HTTP only: the rules live in service.ts. */
export const serviceAccountRoutes: FastifyPluginAsyncZod<{ serviceAccounts: ServiceAccounts }> = async (app, { serviceAccounts }) => {
  const route = actorRoutes(app, tags);
  /** the routes that make their own answer (headers, redirects, no actor) */
  const handled = routes(app, tags);

  // by hand, for its no-store: the answer holds the secret, shown this once
  handled('POST /api/organizations/:organizationId/service-accounts', {
    summary:
      'Create a service account of the organization (a person who manages its subtree, giving only rights they hold); its client secret is answered this once',
    description:
      'The account gets bearer tokens at POST /connect/token (grant_type=client_credentials, its client_id and client_secret by HTTP Basic or in the body, scope=partner_portal_api) ' +
      'and calls /api with `Authorization: Bearer <token>` and no cookie (no X-CSRF needed), acting on the organization’s subtree with the rights given here.',
    params: organizationIdParamsSchema,
    body: serviceAccountCreateSchema,
    response: { 201: serviceAccountCreatedSchema },
    problems: CHANGE_PROBLEMS,
    config: ACTOR_ROUTE,
    handler: async (request, reply) => {
      const created = await serviceAccounts.create(await request.actor(), request.params.organizationId, request.body);
      return reply.code(201).header('cache-control', 'no-store').send(created);
    },
  });

  route('GET /api/organizations/:organizationId/service-accounts', {
    summary: 'The service accounts of the organization, without secrets (a person who manages its subtree)',
    params: organizationIdParamsSchema,
    response: { 200: z.array(serviceAccountSchema) },
    answer: (actor, { params }) => serviceAccounts.list(actor, params.organizationId),
  });

  route('DELETE /api/organizations/:organizationId/service-accounts/:serviceAccountId', {
    summary:
      'Delete a service account: its tokens stop working at once (a person who manages the subtree and holds every right of the account)',
    params: serviceAccountParamsSchema,
    response: { 204: noContent },
    answer: (actor, { params }) => serviceAccounts.delete(actor, params.organizationId, params.serviceAccountId),
  });
};
