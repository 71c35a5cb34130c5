import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { organizationExportResponseSchema } from '@partner-portal/contracts';
import { routes } from '../../http/route-kit.js';
import type { DeveloperExport } from './service.js';

/** GET /api/developer/organization-export: the whole tree as JSON (developers only). */
export const developerRoutes: FastifyPluginAsyncZod<{ developerExport: DeveloperExport }> = async (app, { developerExport }) => {
  const route = routes(app, ['developer']);
  route('GET /api/developer/organization-export', {
    summary: 'The whole organization tree as JSON (developers only)',
    response: { 200: organizationExportResponseSchema },
    problems: [401, 403],
    // the whole tree, built field by field by the service: plain JSON (see the tree route)
    serializerCompiler: () => (data) => JSON.stringify(data),
    handler: async (request, reply) => {
      const body = await developerExport.organizationTree(await app.services.sessions.require(request));
      return reply
        .header('content-disposition', 'attachment; filename="organization-export.json"')
        .header('cache-control', 'no-store')
        .send(body);
    },
  });
};
