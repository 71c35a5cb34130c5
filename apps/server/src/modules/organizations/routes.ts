import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  allowedEmailDomainsRequestSchema,
  canCreateSubOrganizationsQuerySchema,
  changeOrganizationAppsRequestSchema,
  createOrganizationRequestSchema,
  createOrganizationResponseSchema,
  organizationIdParamsSchema,
  organizationNodeSchema,
  updateOrganizationRequestSchema,
} from '@partner-portal/contracts';
import type { Organizations } from './service.js';
import { ACTOR_ROUTE, actorRoutes, noContent, routes, SCOPED_PROBLEMS } from '../../http/route-kit.js';

const tags = ['organizations'];
const params = organizationIdParamsSchema;

/** The organization tree (docs/product.md, "Calls" Organizations). HTTP only: the rules live in service.ts. */
export const organizationRoutes: FastifyPluginAsyncZod<{ organizations: Organizations }> = async (app, { organizations }) => {
  const route = actorRoutes(app, tags);
  /** the routes that make their own answer (headers, redirects, no actor) */
  const handled = routes(app, tags);

  // The tree may hold 10,000 nodes, made from the query's rows and serialized once per change
  // (TreeCache, its change log swept by a job in jobs.ts): JSON text, sent as it is, with no
  // recursive zod pass (which cost more than the query). The schema still documents it.
  handled('GET /api/organizations/tree', {
    summary: "The actor's organization with its whole subtree, children sorted by path, with member and pending-invitation counts",
    response: { 200: organizationNodeSchema },
    problems: [401, 403],
    config: ACTOR_ROUTE,
    handler: async (request, reply) => {
      const json = await organizations.tree(await request.actor());
      return reply.type('application/json; charset=utf-8').send(json);
    },
  });

  route('POST /api/organizations', {
    summary: 'Create a sub-organization (organizationManager); the path is derived from the name',
    body: createOrganizationRequestSchema,
    response: { 201: createOrganizationResponseSchema },
    answer: (actor, { body }) => organizations.create(actor, body),
  });

  route('PATCH /api/organizations/:organizationId', {
    summary: 'Rename an organization other than one’s own; its path and its subtree’s paths follow the new name',
    params,
    body: updateOrganizationRequestSchema,
    response: { 204: noContent },
    answer: (actor, { params, body }) => organizations.rename(actor, params.organizationId, body),
  });

  route('DELETE /api/organizations/:organizationId', {
    summary: 'Delete an organization other than one’s own, without members and sub-organizations',
    params,
    response: { 204: noContent },
    answer: (actor, { params }) => organizations.delete(actor, params.organizationId),
  });

  route('PATCH /api/organizations/:organizationId/apps', {
    summary:
      'Change an organization’s apps (from its parent’s apps available for sub-organizations); descendants keep only the allowed apps',
    params,
    body: changeOrganizationAppsRequestSchema,
    response: { 204: noContent },
    answer: (actor, { params, body }) => organizations.changeApps(actor, params.organizationId, body),
  });

  route('PATCH /api/organizations/:organizationId/can-create-sub-organizations', {
    summary:
      'Allow or forbid creating sub-organizations; switching off also switches off sub_organization_can_have_children for the organization and all its descendants',
    params,
    querystring: canCreateSubOrganizationsQuerySchema,
    response: { 204: noContent },
    answer: (actor, { params, query }) =>
      organizations.changeCanCreateSubOrganizations(actor, params.organizationId, query.canCreateSubOrganizations),
  });

  route('PUT /api/organizations/:organizationId/allowed-email-domains', {
    summary:
      'Replace the e-mail domains invitations of this organization are limited to (provider administrators only; empty list: any domain)',
    params,
    body: allowedEmailDomainsRequestSchema,
    response: { 204: noContent },
    problems: SCOPED_PROBLEMS,
    answer: (actor, { params, body }) => organizations.setAllowedEmailDomains(actor, params.organizationId, body.allowed_email_domains),
  });
};
