import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { auditQuerySchema, auditResponseSchema } from '@partner-portal/contracts';
import { listAudit } from './service.js';

/** GET /api/audit: the audit log of an organization's subtree, for its managers. */
export const auditRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/audit',
    {
      schema: {
        tags: ['audit'],
        summary: 'Audit log of an organization and its descendants (newest first, 50 per page); managers of that subtree only',
        querystring: auditQuerySchema,
        response: { 200: auditResponseSchema },
      },
    },
    async (request) => {
      const user = await app.services.sessions.require(request);
      return listAudit(app.services.db, { user, requestId: request.id }, request.query.organizationId, request.query.page);
    },
  );
};
