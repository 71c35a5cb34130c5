import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { auditFilterSchema, auditQuerySchema, auditResponseSchema } from '@partner-portal/contracts';
import type { AuditTrail } from './read.js';
import { actorRoutes } from '../../http/route-kit.js';

/** The audit log of an organization's subtree, for its managers: a page of it, or all of it as CSV. */
export const auditRoutes: FastifyPluginAsyncZod<{ auditTrail: AuditTrail }> = async (app, { auditTrail }) => {
  const route = actorRoutes(app, ['audit']);

  route('GET /api/audit', {
    summary: 'Audit log of an organization and its descendants (newest first, 50 per page); managers of that subtree only',
    description:
      'Optional filters: `action` (one action; its refusals, `<action>.refused`, included), `actor` (part of the actor’s e-mail address, or of a service account’s name, any letter case), ' +
      '`from` and `to` (days, YYYY-MM-DD, UTC, both included). `organizationId` chooses the subtree (default: the actor’s organization).',
    querystring: auditQuerySchema,
    response: { 200: auditResponseSchema },
    answer: (actor, { query }) => auditTrail.page(actor, query),
  });

  route('GET /api/audit/export', {
    summary: 'The audit log of GET /api/audit (same subtree, same filters, every page up to 50,000 entries, newest first) as CSV',
    querystring: auditFilterSchema,
    produces: ['text/csv'],
    response: { 200: z.any().describe('The CSV file, as an attachment') },
    answer: (actor, { query }) => auditTrail.csv(actor, query),
  });
};
