import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { healthResponseSchema } from '@partner-portal/contracts';
import { answeredUnderPressure } from '../../http/overload.js';

/**
 * Health checks (README, "Operations"). No X-CSRF needed.
 * - GET /health: 200 {"status":"ok"} when the database answers, 503 otherwise.
 * - GET /health/live: 200 while the process serves HTTP; the database is not asked (restarting the
 *   portal does not bring a database back).
 * - GET /health/ready: 200 when this instance should get traffic: the database answers and the
 *   instance is not shutting down; 503 otherwise.
 */
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  const response = { 200: healthResponseSchema, 503: healthResponseSchema };

  app.get(
    '/health',
    {
      schema: { tags: ['health'], summary: 'Liveness and database check', response },
    },
    async (_request, reply) => {
      const ok = await app.services.db.ping();
      return reply
        .code(ok ? 200 : 503)
        .header('cache-control', 'no-store')
        .send({ status: ok ? 'ok' : 'unavailable' });
    },
  );

  app.get(
    '/health/live',
    {
      // answered even when the instance is overloaded: overload is not a reason to restart it
      config: { pressureHandler: answeredUnderPressure },
      schema: { tags: ['health'], summary: 'Liveness: the process serves HTTP', response: { 200: healthResponseSchema } },
    },
    async (_request, reply) => reply.header('cache-control', 'no-store').send({ status: 'ok' }),
  );

  app.get(
    '/health/ready',
    {
      schema: { tags: ['health'], summary: 'Readiness: the database answers and the instance is not shutting down', response },
    },
    async (_request, reply) => {
      const ok = !closing && (await app.services.db.ping());
      return reply
        .code(ok ? 200 : 503)
        .header('cache-control', 'no-store')
        .send({ status: ok ? 'ok' : 'unavailable' });
    },
  );
};
