import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { auditFilterSchema, auditQuerySchema, auditResponseSchema } from '@partner-portal/contracts';
import { exportAuditTrail, listAuditTrail } from './read.js';
import { problems } from '../../http/route-kit.js';

/** The audit log of an organization's subtree, for its managers: a page of it, or all of it as CSV. */
export const auditRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/audit',
    {
      schema: {
        tags: ['audit'],
        summary: 'Audit log of an organization and its descendants (newest first, 50 per page); managers of that subtree only',
        description:
          'Optional filters: `action` (one action; its refusals, `<action>.refused`, included), `actor` (part of the actor’s e-mail address, any letter case), ' +
          '`from` and `to` (days, YYYY-MM-DD, UTC, both included). `organizationId` chooses the subtree (default: the actor’s organization).',
        querystring: auditQuerySchema,
        response: { 200: auditResponseSchema, ...problems(400, 401, 403, 404) },
      },
    },
    async (request) => {
      return listAuditTrail(app.services.db, await request.actor(), request.query);
    },
  );

  app.get(
    '/api/audit/export',
    {
      schema: {
        tags: ['audit'],
        summary: 'The audit log of GET /api/audit (same subtree, same filters, every page up to 50,000 entries, newest first) as CSV',
        querystring: auditFilterSchema,
        produces: ['text/csv'],
        response: { 200: z.any().describe('The CSV file, as an attachment'), ...problems(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const file = await exportAuditTrail(app.services.db, await request.actor(), request.query);
      return reply
        .header('content-type', file.contentType)
        .header('content-disposition', `attachment; filename="${file.filename}"`)
        .header('cache-control', 'no-store')
        .send(file.body);
    },
  );
};
