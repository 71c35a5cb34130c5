import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  memberSearchQuerySchema,
  memberSearchResponseSchema,
  organizationIdParamsSchema,
  organizationSchema,
} from '@partner-portal/contracts';
import * as service from './service.js';
import { problems } from '../../http/route-kit.js';

/** The organization page's reads (docs/product.md, "Calls" Organizations and Members). HTTP only: the rules live in service.ts. */
export const organizationDetailsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { services } = app;

  app.get(
    '/api/organizations/:organizationId',
    {
      schema: {
        tags: ['organizations'],
        summary: 'One organization of the actor’s subtree: sub-organizations, pending invitations, members, apps, allowed e-mail domains',
        params: organizationIdParamsSchema,
        response: { 200: organizationSchema, ...problems(400, 401, 403, 404) },
      },
    },
    async (request) => service.getOrganization(services.db, await request.actor(), request.params.organizationId),
  );

  app.get(
    '/api/members/search',
    {
      schema: {
        tags: ['members'],
        summary: 'Search members and pending invitations by e-mail',
        description:
          'Case-insensitive substring match of `q` in e-mail addresses, across the organization `organizationId` and all its descendants ' +
          '(which must lie in the actor’s subtree). Results are sorted by organization path, then e-mail, and paged with `page` (from 1) and ' +
          '`pageSize` (1–200, default 50). `total` counts the matching members (exactly up to 1,000; beyond, `total_capped` is true), `invitations_total` the matching pending invitations; ' +
          'an empty `q` lists everything. Served by the path index and a trigram index on lower(email). ' +
          'With `inactiveDays` (30, 90, 180 or 365) only members who have not signed in for that many days, or never, are listed, and no invitations. ' +
          'Each member carries `last_sign_in_at` (null: never signed in).',
        querystring: memberSearchQuerySchema,
        response: { 200: memberSearchResponseSchema, ...problems(400, 401, 403, 404) },
      },
    },
    async (request) => service.searchPeople(services.db, await request.actor(), request.query),
  );
};
