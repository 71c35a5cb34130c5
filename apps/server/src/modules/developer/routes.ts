import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { organizationExportResponseSchema, problemSchema } from '@partner-portal/contracts';
import type { DeveloperExport } from './service.js';

/** GET /api/developer/organization-export: the whole tree as JSON (developers only). */
export const developerRoutes: FastifyPluginAsyncZod<{ developerExport: DeveloperExport }> = async (app, { developerExport }) => {
  app.get(
    '/api/developer/organization-export',
    {
      schema: {
        tags: ['developer'],
        summary: 'The whole organization tree as JSON (developers only)',
        response: { 200: organizationExportResponseSchema, 401: problemSchema, 403: problemSchema },
      },
      // the whole tree, built field by field by the service: plain JSON (see the tree route)
      serializerCompiler: () => (data) => JSON.stringify(data),
    },
    async (request, reply) => {
      const body = await developerExport.organizationTree(await app.services.sessions.require(request));
      return reply
        .header('content-disposition', 'attachment; filename="organization-export.json"')
        .header('cache-control', 'no-store')
        .send(body);
    },
  );
};
