import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { healthResponseSchema } from '@partner-portal/contracts';
import { answeredUnderPressure } from '../../http/overload.js';
import { routes } from '../../http/route-kit.js';

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
  const route = routes(app, ['health']);

  route('GET /health', {
    summary: 'Liveness and database check',
    response,
    handler: async (_request, reply) => {
      const ok = await app.services.db.ping();
      return reply
        .code(ok ? 200 : 503)
        .header('cache-control', 'no-store')
        .send({ status: ok ? 'ok' : 'unavailable' });
    },
  });

  route('GET /health/live', {
    summary: 'Liveness: the process serves HTTP',
    response: { 200: healthResponseSchema },
    // answered even when the instance is overloaded: overload is not a reason to restart it
    config: { pressureHandler: answeredUnderPressure },
    handler: async (_request, reply) => reply.header('cache-control', 'no-store').send({ status: 'ok' }),
  });

  route('GET /health/ready', {
    summary: 'Readiness: the database answers and the instance is not shutting down',
    response,
    handler: async (_request, reply) => {
      const ok = !closing && (await app.services.db.ping());
      return reply
        .code(ok ? 200 : 503)
        .header('cache-control', 'no-store')
        .send({ status: ok ? 'ok' : 'unavailable' });
    },
  });
};
