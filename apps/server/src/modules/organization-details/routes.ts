import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  memberSearchQuerySchema,
  memberSearchResponseSchema,
  organizationIdParamsSchema,
  organizationSchema,
} from '@partner-portal/contracts';
import type { OrganizationDetails } from './service.js';
import { actorRoutes } from '../../http/route-kit.js';

/** The organization page's reads (docs/product.md, "Calls" Organizations and Members). HTTP only: the rules live in service.ts. */
export const organizationDetailsRoutes: FastifyPluginAsyncZod<{ organizationDetails: OrganizationDetails }> = async (app, options) => {
  const { organizationDetails } = options;
  const organizationRoute = actorRoutes(app, ['organizations']);
  const memberRoute = actorRoutes(app, ['members']);

  organizationRoute('GET /api/organizations/:organizationId', {
    summary: 'One organization of the actor’s subtree: sub-organizations, pending invitations, members, apps, allowed e-mail domains',
    params: organizationIdParamsSchema,
    response: { 200: organizationSchema },
    answer: (actor, { params }) => organizationDetails.organization(actor, params.organizationId),
  });

  memberRoute('GET /api/members/search', {
    summary: 'Search members and pending invitations by e-mail',
    description:
      'Case-insensitive substring match of `q` in e-mail addresses, across the organization `organizationId` and all its descendants ' +
      '(which must lie in the actor’s subtree). Results are sorted by organization path, then e-mail, and paged with `page` (from 1) and ' +
      '`pageSize` (1–200, default 50). `total` counts the matching members (exactly up to 1,000; beyond, `total_capped` is true), `invitations_total` the matching pending invitations; ' +
      'an empty `q` lists everything. Served by the path index and a trigram index on lower(email). ' +
      'With `inactiveDays` (30, 90, 180 or 365) only members who have not signed in for that many days, or never, are listed, and no invitations. ' +
      'Each member carries `last_sign_in_at` (null: never signed in).',
    querystring: memberSearchQuerySchema,
    response: { 200: memberSearchResponseSchema },
    answer: (actor, { query }) => organizationDetails.searchPeople(actor, query),
  });
};
