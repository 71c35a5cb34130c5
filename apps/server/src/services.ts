import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import type { Metrics } from './http/metrics.js';
import type { CounterStore } from './http/rate-limit.js';
import type { Tracing } from './http/tracing.js';
import type { SessionStore } from './http/session.js';
import type { SessionCache } from './http/session-cache.js';
import type { Mailer } from './modules/mail/mailer.js';

/**
 * What the modules are built from; made once at start (main.ts) or per test. The OpenID provider
 * adds its account cache (oidc/account.ts, accountCache), typed by its own rows.
 */
export interface Services {
  config: Config;
  db: Database;
  log: Logger;
  sessions: SessionStore;
  /** the OpenID provider's clients, cached per instance like sessions (oidc/adapter.ts); null: read at every lookup */
  clientCache: SessionCache<Record<string, unknown>> | null;
  counters: CounterStore;
  mailer: Mailer;
  redis: Redis | null;
  /** Prometheus metrics of this instance (served at /metrics when configured) */
  metrics: Metrics;
  /** OpenTelemetry traces, when an exporter endpoint is configured */
  tracing: Tracing | null;
  /** secrets shared by every instance (generated at first start when not configured) */
  secrets: { session: string; keyEncryption: string };
}

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
  }
}
