import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { healthResponseSchema } from '@partner-portal/contracts';

/** GET /health: 200 {"status":"ok"} when the database answers, 503 otherwise. No X-CSRF needed. */
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/health',
    {
      schema: { tags: ['health'], summary: 'Liveness and database check', response: { 200: healthResponseSchema, 503: healthResponseSchema } },
    },
    async (_request, reply) => {
      const ok = await app.services.db.ping();
      return reply.code(ok ? 200 : 503).header('cache-control', 'no-store').send({ status: ok ? 'ok' : 'unavailable' });
    },
  );
};
