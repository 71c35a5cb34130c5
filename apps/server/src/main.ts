import v8 from 'node:v8';
import { pino, type DestinationStream, type Logger } from 'pino';
import { ConfigError, loadConfig, type Config } from './config.js';
import { openDatabase } from './db/client.js';
import { migrate } from './db/migrate.js';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { bootstrap } from './bootstrap.js';
import { Metrics } from './http/metrics.js';
import { startIdleHeapCollector } from './idle-heap.js';
import { startJobs } from './jobs.js';
import { postgresCounterStore, redisCounterStore } from './modules/counters/stores.js';
import { startTracing } from './http/tracing.js';
import { SessionStore, type SessionUser } from './http/session.js';
import { connectSessionCache, SessionCache } from './http/session-cache.js';
import { createMailer } from './modules/mail/mailer.js';
import { sessionRows } from './modules/sessions/store-queries.js';
import type { AccountRow } from './oidc/queries.js';
import { sharedSecret } from './secrets.js';
import type { Services } from './services.js';

/** How long a log line may wait in the buffer of the standard output before it is written. */
const LOG_FLUSH_INTERVAL_MS = 1000;

/**
 * The standard output, written asynchronously: lines are gathered into writes of at least 4 KB
 * (an access line per request would otherwise be a system call per request, a third of the CPU
 * of a read: docs/performance.md), written at least every second, and flushed synchronously when
 * the process exits (pino registers the buffer for that). A write takes at most 4.5 KB
 * (`maxWrite`, 16 KB by default): the buffer measures the byte length of its last pending chunk at
 * every line, so a smaller chunk costs less per line (the buffer alone: 3.4 → 1.6 µs of CPU per
 * access line; in the CPU profile of user-info reads, the access line and its writes 14.6 → 12.2 %
 * of the portal's samples).
 */
export function bufferedStdout(): DestinationStream {
  const destination = pino.destination({ dest: 1, sync: false, minLength: 4096, maxWrite: 4608 });
  setInterval(() => {
    try {
      destination.flush();
    } catch {
      // closed (the process is ending): nothing left to write
    }
  }, LOG_FLUSH_INTERVAL_MS).unref();
  return destination;
}

/** The portal's logger; to the buffered standard output unless given another destination (tests). */
export function createLogger(config: Pick<Config, 'LOG_LEVEL'>, destination: DestinationStream = bufferedStdout()): Logger {
  return pino(
    {
      level: config.LOG_LEVEL,
      redact: { paths: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'], remove: true },
    },
    destination,
  );
}

/** Open the database, migrate, and make the services. Used by main and by the tests. */
export async function createServices(config: Config, log: Logger, options: { inMemory?: boolean } = {}): Promise<Services> {
  const db = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    poolSize: config.DATABASE_POOL_SIZE,
    ...(options.inMemory ? { inMemory: true } : {}),
    onError: (err) => log.warn({ err }, 'database connection lost'),
  });
  const applied = await migrate(db);
  if (applied.length) log.info({ applied }, 'migrations applied');
  const onGenerated = (name: string) =>
    (config.isProduction ? log.warn.bind(log) : log.info.bind(log))(
      { secret: name },
      'secret generated and kept in the database; configure it explicitly in production',
    );
  const secrets = {
    session: await sharedSecret(db, 'session_secret', config.SESSION_SECRET, onGenerated),
    keyEncryption: await sharedSecret(db, 'key_encryption_key', config.KEY_ENCRYPTION_KEY, onGenerated),
  };
  const tracing = await startTracing(config);
  // ioredis is loaded only when Redis is configured
  const redis = config.REDIS_URL
    ? new (await import('ioredis')).Redis(config.REDIS_URL, { lazyConnect: false, maxRetriesPerRequest: 2 })
    : null;
  redis?.on('error', (err) => log.warn({ err }, 'redis error'));
  const metrics = new Metrics();
  const cacheOf = <T>(name: string): SessionCache<T> | null =>
    config.SESSION_CACHE_TTL_SECONDS > 0
      ? new SessionCache<T>({
          ttlMs: config.SESSION_CACHE_TTL_SECONDS * 1000,
          maxEntries: config.SESSION_CACHE_MAX_ENTRIES,
          maxBytes: config.SESSION_CACHE_MAX_MB * 2 ** 20,
          onLookup: (hit) => metrics.cacheLookup(name, hit),
        })
      : null;
  const cache = cacheOf<SessionUser>('sessions');
  const accounts = cacheOf<AccountRow>('accounts');
  const clients = cacheOf<Record<string, unknown>>('clients');
  // whether any single sign-on connection exists (modules/sso/routing.ts): one entry, dropped by its
  // announcement (migration 0062) or when announcements stop, so it may live long
  const sso =
    config.SESSION_CACHE_TTL_SECONDS > 0
      ? new SessionCache<boolean>({ ttlMs: 3600 * 1000, maxEntries: 1, onLookup: (hit) => metrics.cacheLookup('sso_connections', hit) })
      : null;
  const sessions = new SessionStore(
    db,
    { ttlSeconds: config.SESSION_TTL_SECONDS, rememberTtlSeconds: config.REMEMBER_ME_TTL_SECONDS, secureCookies: config.isHttps },
    sessionRows,
    cache,
  );
  if (cache && accounts && clients && sso) {
    sessions.stopCache = await connectSessionCache([cache, accounts, clients, sso] as SessionCache<unknown>[], db, {
      redis,
      onError: (err) => log.warn({ err }, 'session cache: announcements interrupted; reads go to the database until they are back'),
    });
  }
  return {
    config,
    db,
    log,
    redis,
    metrics,
    tracing,
    secrets,
    counters: redis ? redisCounterStore(redis) : postgresCounterStore(db),
    sessions,
    clientCache: clients,
    accountCache: accounts,
    ssoCache: sso,
    mailer: createMailer({ db, keyEncryption: secrets.keyEncryption }),
  };
}

const closed = new WeakSet<Services>();

/** Close what the services hold; a second call does nothing. */
export async function closeServices(services: Services): Promise<void> {
  if (closed.has(services)) return;
  closed.add(services);
  await services.sessions.stopCache?.();
  services.redis?.disconnect();
  await services.tracing?.shutdown().catch((err: unknown) => services.log.warn({ err }, 'traces could not be sent'));
  await services.db.close();
}

/**
 * Graceful shutdown (README, "Operations"): stop accepting connections, answer /health/ready 503,
 * let the requests in flight finish (at most SHUTDOWN_TIMEOUT_SECONDS), then close the database.
 * Returns false when requests had to be cut at the time limit.
 */
export async function shutdownGracefully(app: FastifyInstance, services: Services): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeLimit = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), services.config.SHUTDOWN_TIMEOUT_SECONDS * 1000);
  });
  // a connection whose request was in flight at the start stays open (keep-alive) once answered:
  // close each as soon as it is idle
  const closeIdle = setInterval(() => app.server.closeIdleConnections(), 100);
  const drained = await Promise.race([app.close().then(() => true as const), timeLimit]);
  clearTimeout(timer);
  clearInterval(closeIdle);
  if (!drained) {
    services.log.warn(
      { timeoutSeconds: services.config.SHUTDOWN_TIMEOUT_SECONDS },
      'requests still in flight at the shutdown time limit were cut',
    );
    app.server.closeAllConnections();
  }
  await closeServices(services);
  return drained;
}

export async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(78); // EX_CONFIG
    }
    throw err;
  }
  const log = createLogger(config);
  // On the embedded database (the zero-setup default of small installations), V8's young
  // generation is kept at its initial size instead of two 16 MB semi-spaces it keeps once grown:
  // 10–20 MB less resident after a load, for more frequent young collections (docs/performance.md,
  // "Memory that comes back"). Set for the server process only: a process that merely opens an
  // embedded database (a test, a command-line tool) keeps V8's defaults.
  if (!config.DATABASE_URL) v8.setFlagsFromString('--semi-space-growth-factor=1');
  let services: Services;
  try {
    services = await createServices(config, log);
  } catch (err) {
    log.fatal({ err }, 'the database could not be opened or migrated');
    console.error(`Could not start: ${(err as Error).message} (check DATABASE_URL / DATA_DIR)`);
    process.exit(1);
  }
  const result = await bootstrap(services.db, {
    adminEmail: config.BOOTSTRAP_ADMIN_EMAIL,
    adminPassword: config.BOOTSTRAP_ADMIN_PASSWORD,
    providerName: config.PROVIDER_ORGANIZATION_NAME,
  });
  if (result.created) {
    log.info({ email: result.email }, 'provider root organization and administrator created');
    if (result.generatedPassword) {
      const line = `Administrator login: ${result.email} / ${result.generatedPassword}  (printed once; change it after signing in)`;
      console.log(`\n${'='.repeat(line.length)}\n${line}\n${'='.repeat(line.length)}\n`);
    }
  }
  const app = await buildApp(services);
  const jobs = await startJobs(services, app.oidc, app.modules);
  const stopIdleHeapCollector = startIdleHeapCollector(log);
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) {
      log.warn({ signal }, 'second signal: stopping at once');
      process.exit(1);
    }
    stopping = true;
    log.info({ signal }, 'shutting down: draining requests in flight');
    stopIdleHeapCollector();
    await jobs.stop().catch((err: unknown) => log.warn({ err }, 'background jobs did not stop cleanly'));
    const drained = await shutdownGracefully(app, services).catch((err: unknown) => {
      log.error({ err }, 'shutdown failed');
      return false;
    });
    log.info({ drained }, 'stopped');
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  await app.listen({ port: config.PORT, host: config.HOST });
  console.log(`Partner Portal is listening on ${config.publicUrl} (database: ${services.db.kind})`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  void main();
}
