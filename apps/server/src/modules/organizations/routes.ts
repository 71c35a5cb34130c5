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
  type OrganizationNode,
} from '@partner-portal/contracts';
import * as service from './service.js';
import { TreeCache } from './tree-cache.js';
import { noContent, problems } from '../../http/route-kit.js';

/** The organization tree (docs/product.md, "Calls" Organizations). HTTP only: the rules live in service.ts. */
export const organizationRoutes: FastifyPluginAsyncZod = async (app) => {
  const { services } = app;
  const treeCache = new TreeCache((hit) => services.metrics.cacheLookup('organization_tree', hit));
  // the tree's change log is swept by a job (jobs.ts)

  app.get(
    '/api/organizations/tree',
    {
      schema: {
        tags: ['organizations'],
        summary: "The actor's organization with its whole subtree, children sorted by path, with member and pending-invitation counts",
        response: { 200: organizationNodeSchema, ...problems(401, 403) },
      },
    },
    // The tree may hold 10,000 nodes, made from the query's rows and serialized once per change
    // (TreeCache): JSON text, sent as it is, with no recursive zod pass (which cost more than the
    // query). The schema still documents it; the cast tells the type provider so.
    async (request, reply) => {
      const json = await service.getTree(services.db, await request.actor(), treeCache);
      return reply.type('application/json; charset=utf-8').send(json as unknown as OrganizationNode);
    },
  );

  app.post(
    '/api/organizations',
    {
      schema: {
        tags: ['organizations'],
        summary: 'Create a sub-organization (organizationManager); the path is derived from the name',
        body: createOrganizationRequestSchema,
        response: { 201: createOrganizationResponseSchema, ...problems(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => reply.code(201).send(await service.createOrganization(services.db, await request.actor(), request.body)),
  );

  app.patch(
    '/api/organizations/:organizationId',
    {
      schema: {
        tags: ['organizations'],
        summary: 'Rename an organization other than one’s own; its path and its subtree’s paths follow the new name',
        params: organizationIdParamsSchema,
        body: updateOrganizationRequestSchema,
        response: { 204: noContent, ...problems(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await service.updateOrganization(services.db, await request.actor(), request.params.organizationId, request.body);
      return reply.code(204).send(null);
    },
  );

  app.delete(
    '/api/organizations/:organizationId',
    {
      schema: {
        tags: ['organizations'],
        summary: 'Delete an organization other than one’s own, without members and sub-organizations',
        params: organizationIdParamsSchema,
        response: { 204: noContent, ...problems(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await service.deleteOrganization(services.db, await request.actor(), request.params.organizationId);
      return reply.code(204).send(null);
    },
  );

  app.patch(
    '/api/organizations/:organizationId/apps',
    {
      schema: {
        tags: ['organizations'],
        summary:
          'Change an organization’s apps (from its parent’s apps available for sub-organizations); descendants keep only the allowed apps',
        params: organizationIdParamsSchema,
        body: changeOrganizationAppsRequestSchema,
        response: { 204: noContent, ...problems(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await service.changeApps(services.db, await request.actor(), request.params.organizationId, request.body);
      return reply.code(204).send(null);
    },
  );

  app.patch(
    '/api/organizations/:organizationId/can-create-sub-organizations',
    {
      schema: {
        tags: ['organizations'],
        summary:
          'Allow or forbid creating sub-organizations; switching off also switches off sub_organization_can_have_children for the organization and all its descendants',
        params: organizationIdParamsSchema,
        querystring: canCreateSubOrganizationsQuerySchema,
        response: { 204: noContent, ...problems(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await service.changeCanCreateSubOrganizations(
        services.db,
        await request.actor(),
        request.params.organizationId,
        request.query.canCreateSubOrganizations,
      );
      return reply.code(204).send(null);
    },
  );

  app.put(
    '/api/organizations/:organizationId/allowed-email-domains',
    {
      schema: {
        tags: ['organizations'],
        summary:
          'Replace the e-mail domains invitations of this organization are limited to (provider administrators only; empty list: any domain)',
        params: organizationIdParamsSchema,
        body: allowedEmailDomainsRequestSchema,
        response: { 204: noContent, ...problems(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await service.setAllowedEmailDomains(
        services.db,
        await request.actor(),
        request.params.organizationId,
        request.body.allowed_email_domains,
      );
      return reply.code(204).send(null);
    },
  );
};
