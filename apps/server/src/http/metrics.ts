import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest, onResponseAsyncHookHandler } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Database } from '../db/client.js';
import { answeredUnderPressure } from './overload.js';
import { AppError, sendProblem } from './problem.js';

/**
 * What operators watch (README, "Operations"): Prometheus metrics of this instance. The counters
 * live on every instance; GET /metrics serves them only when METRICS_ENABLED or METRICS_TOKEN is
 * configured, and with a token only to a scraper that sends it as a bearer token.
 */
export class Metrics {
  readonly registry = new Registry();

  readonly requestDuration = new Histogram({
    name: 'partner_portal_http_request_duration_seconds',
    help: 'Duration of HTTP requests, by method, route (the route pattern) and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  readonly logins = this.counter('partner_portal_logins_total', 'Password logins, by outcome (succeeded or failed)', ['outcome']);

  readonly loginLocks = this.counter(
    'partner_portal_login_locks_total',
    'Login attempts refused because the account or the address made too many attempts (429)',
  );

  readonly secondFactors = this.counter(
    'partner_portal_second_factor_checks_total',
    'Second-factor checks at sign-in or confirmation (a code of the app, a recovery code, a passkey), by outcome (succeeded or failed)',
    ['outcome'],
  );

  /** lookups counted as plain numbers (a lookup is on every authenticated request), published at a scrape */
  private readonly lookups = new Map<string, { hit: number; miss: number }>();

  readonly cacheLookups: Counter<'cache' | 'result'> = new Counter({
    name: 'partner_portal_cache_lookups_total',
    help: 'Lookups in the per-instance caches, by cache and result (hit or miss)',
    labelNames: ['cache', 'result'] as const,
    registers: [this.registry],
    collect: () => {
      this.cacheLookups.reset();
      for (const [cache, { hit, miss }] of this.lookups) {
        this.cacheLookups.inc({ cache, result: 'hit' }, hit);
        this.cacheLookups.inc({ cache, result: 'miss' }, miss);
      }
    },
  });

  readonly overloadRejections = this.counter(
    'partner_portal_overload_rejections_total',
    'Requests answered 503 because the instance was overloaded, by reason (eventLoopDelay, heapUsedBytes, rssBytes)',
    ['reason'],
  );

  private defaultsCollected = false;

  /** A counter of this instance's registry, with the given labels. */
  private counter<const L extends string = never>(name: string, help: string, labelNames: readonly L[] = []): Counter<L> {
    return new Counter({ name, help, labelNames, registers: [this.registry] });
  }

  /** A password login ended: the password login of modules/identity (login.ts, routes.ts). */
  login(succeeded: boolean): void {
    this.logins.inc({ outcome: succeeded ? 'succeeded' : 'failed' });
  }

  cacheLookup(cache: string, hit: boolean): void {
    let counts = this.lookups.get(cache);
    if (!counts) this.lookups.set(cache, (counts = { hit: 0, miss: 0 }));
    if (hit) counts.hit += 1;
    else counts.miss += 1;
  }

  /** Process metrics (memory, CPU, event-loop delay, GC) and the database pool; once, when enabled. */
  collectProcessAndDatabase(db: Database): void {
    if (this.defaultsCollected) return;
    this.defaultsCollected = true;
    collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: 10 });
    const pool = (state: 'total' | 'idle' | 'waiting') => db.poolStats()[state];
    new Gauge({
      name: 'partner_portal_db_pool_connections',
      help: 'Database connections of this instance, by state: total (open), idle, waiting (requests queued for a connection)',
      labelNames: ['state'] as const,
      registers: [this.registry],
      collect() {
        for (const state of ['total', 'idle', 'waiting'] as const) this.set({ state }, pool(state));
      },
    });
  }
}

function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/**
 * GET /metrics and the request timings. Off unless configured: without METRICS_ENABLED or
 * METRICS_TOKEN, /metrics is an unknown path (404) and no request is timed.
 */
export async function registerMetrics(app: FastifyInstance): Promise<void> {
  const { config, metrics, db } = app.services;
  const token = config.METRICS_TOKEN;
  const enabled = config.METRICS_ENABLED || token !== undefined;
  if (enabled) metrics.collectProcessAndDatabase(db);

  // login locks: a hook on the login route only, so that other requests pay nothing for it
  const countLock: onResponseAsyncHookHandler = async (_request, reply) => {
    if (reply.statusCode === 429) metrics.loginLocks.inc();
  };
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (route.url !== '/api/identity/login' || !methods.includes('POST')) return;
    route.onResponse = [...(route.onResponse ? [route.onResponse].flat() : []), countLock];
  });

  if (enabled) {
    app.addHook('onResponse', async (request, reply) => {
      metrics.requestDuration.observe(
        { method: request.method, route: request.routeOptions.url ?? '(unmatched)', status_code: String(reply.statusCode) },
        reply.elapsedTime / 1000,
      );
    });
  }

  app.get(
    '/metrics',
    { config: { pressureHandler: answeredUnderPressure }, schema: { hide: true } },
    async (request: FastifyRequest, reply) => {
      if (!enabled) return sendProblem(request, reply, new AppError('not_found'));
      if (token !== undefined) {
        const header = request.headers.authorization ?? '';
        const given = header.startsWith('Bearer ') ? header.slice(7) : '';
        if (!sameSecret(given, token)) {
          void reply.header('www-authenticate', 'Bearer realm="metrics"');
          return sendProblem(request, reply, new AppError('unauthorized'));
        }
      }
      const body = await metrics.registry.metrics();
      return reply.header('cache-control', 'no-store').type(metrics.registry.contentType).send(body);
    },
  );
}
