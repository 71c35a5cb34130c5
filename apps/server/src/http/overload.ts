import { getHeapStatistics } from 'node:v8';
import type { FastifyInstance } from 'fastify';
import underPressure from '@fastify/under-pressure';
import { AppError, sendProblem } from './problem.js';

const MB = 1024 * 1024;

/**
 * Overload (README, "Operations"): while the process holds more memory than allowed (by default
 * 90 % of V8's heap limit, where V8 would stop the process), or, when configured, while the event
 * loop lags behind, new requests are answered at once with 503 and Retry-After (a problem
 * `service_unavailable`) instead of queueing until memory runs out. Measured every second by
 * @fastify/under-pressure. /health/live and /metrics are always answered.
 */
export async function registerOverloadProtection(app: FastifyInstance): Promise<void> {
  const { config, metrics } = app.services;
  // V8 stops the process when its heap reaches its limit: refuse work at 90 % of it by default
  const maxHeapUsedBytes =
    config.OVERLOAD_MAX_HEAP_USED_MB !== undefined
      ? config.OVERLOAD_MAX_HEAP_USED_MB * MB
      : Math.floor(getHeapStatistics().heap_size_limit * 0.9);
  const retryAfter = String(config.OVERLOAD_RETRY_AFTER_SECONDS);
  await app.register(underPressure, {
    maxEventLoopDelay: config.OVERLOAD_MAX_EVENT_LOOP_DELAY_MS,
    maxHeapUsedBytes,
    maxRssBytes: config.OVERLOAD_MAX_RSS_MB * MB,
    retryAfter: config.OVERLOAD_RETRY_AFTER_SECONDS,
    pressureHandler: async (request, reply, type) => {
      metrics.overloadRejections.inc({ reason: type });
      await sendProblem(request, reply, new AppError('service_unavailable', { headers: { 'retry-after': retryAfter } }));
    },
  });
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** a route's own overload handler (@fastify/under-pressure); `answeredUnderPressure` exempts it */
    pressureHandler?: () => unknown;
  }
}

/** For routes answered even under pressure (liveness, metrics): returning nothing lets them through. */
export const answeredUnderPressure = (): undefined => undefined;
