import { appendFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import { loadConfig, type Config } from '../../src/config.js';
import { buildApp } from '../../src/app.js';
import { bootstrap } from '../../src/bootstrap.js';
import { closeServices, createLogger, createServices } from '../../src/main.js';
import type { UndeclaredAnswer } from '../../src/http/declared-statuses.js';
import { startPasswordResetRequests } from '../../src/modules/identity/reset-requests.js';
import { startMailWorker, type MailWorker } from '../../src/modules/mail/outbox-worker.js';
import { startBackchannelLogoutWorker } from '../../src/oidc/backchannel.js';
import type { Services } from '../../src/services.js';
import { createFreshDatabase, testDatabaseUrl } from './database.js';
import { HttpClient } from './http.js';
import { SmtpSink } from './smtp.js';

export const ADMIN_EMAIL = 'admin@example.com';
export const ADMIN_PASSWORD = 'Admin-Passw0rd!';
/** The login's limits lifted, for a portal whose tests sign in (or fail to) many times: the limits have their own tests. */
export const NO_LOGIN_LIMITS = { LOGIN_RATE_LIMIT_PER_ACCOUNT: '100000', LOGIN_RATE_LIMIT_PER_IP: '100000' };

export interface TestPortal {
  url: string;
  config: Config;
  services: Services;
  app: FastifyInstance;
  smtp: SmtpSink;
  /** the e-mails' sender (as jobs.ts starts it), sending the outbox to `smtp` */
  mailWorker: MailWorker;
  /**
   * Until no e-mail is pending in the outbox (each sent, failed or kept): then `smtp` holds every
   * e-mail written so far, and a test may count them, or see that none came.
   */
  mailSettled(timeoutMs?: number): Promise<void>;
  /**
   * Until nothing is pending in the outboxes the portal sends (e-mails and back-channel logouts):
   * then `smtp` holds every e-mail, and each relying party every logout token, written so far.
   */
  outboxSettled(timeoutMs?: number): Promise<void>;
  /** a new client with its own cookie jar */
  client(): HttpClient;
  /** a client signed in as the given user (a session made directly, without the login flow) */
  sessionFor(userId: string): Promise<HttpClient>;
  adminUserId: string;
  rootOrganizationId: string;
  close(): Promise<void>;
}

/**
 * A port nothing listens on, for a server a test starts a moment later. It is drawn below the
 * kernel's ephemeral range (32768–60999 here, `/proc/sys/net/ipv4/ip_local_port_range`): a port
 * the kernel hands out for `listen(0)` is in that range, and so is the local port of every outgoing
 * connection (to PostgreSQL, SMTP, the portal), one of which could take it before the test's server
 * listens (EADDRINUSE). A port already in use is skipped.
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = 10_000 + Math.floor(Math.random() * 22_000);
    const free = await new Promise<boolean>((resolve) => {
      const srv = createServer();
      srv.once('error', () => resolve(false));
      srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
    });
    if (free) return port;
  }
}

/**
 * Start the whole portal for a test file: a fresh database (PostgreSQL when configured, else
 * PGlite in memory), a real SMTP sink, the bootstrap administrator, listening on a free port.
 * `logDestination` receives the portal's log lines instead of the standard output.
 */
export async function startPortal(
  env: Record<string, string> = {},
  options: { publicHost?: string; logDestination?: DestinationStream } = {},
): Promise<TestPortal> {
  // WebAuthn needs a domain name as the relying party (an IP address is refused): 'localhost'
  const publicHost = options.publicHost ?? '127.0.0.1';
  const smtp = await new SmtpSink().start();
  const base = testDatabaseUrl();
  const database = base ? await createFreshDatabase(base) : null;
  const port = await freePort();
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://${publicHost}:${port}`,
    SMTP_URL: smtp.url,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    BOOTSTRAP_ADMIN_EMAIL: ADMIN_EMAIL,
    BOOTSTRAP_ADMIN_PASSWORD: ADMIN_PASSWORD,
    RATE_LIMIT_MAX: '100000',
    RATE_LIMIT_SESSION_MAX: '100000',
    ...(database ? { DATABASE_URL: database.url, DATABASE_POOL_SIZE: '5' } : {}),
    ...env,
  });
  const services = await createServices(config, createLogger(config, options.logDestination), { inMemory: !database });
  await bootstrap(services.db, { adminEmail: ADMIN_EMAIL, adminPassword: ADMIN_PASSWORD, providerName: config.PROVIDER_ORGANIZATION_NAME });
  const app = await buildApp(services);
  await app.listen({ port, host: '127.0.0.1' });
  // the outbox's lanes of e-mails, back-channel logouts and password reset requests, as jobs.ts starts them (the webhooks'
  // lane and the other jobs are started by the tests that need them)
  const mailWorker = await startMailWorker({ db: services.db, config, log: services.log, keyEncryption: services.secrets.keyEncryption });
  const logoutWorker = await startBackchannelLogoutWorker({
    db: services.db,
    config,
    log: services.log,
    provider: () => app.oidc.provider(),
  });
  const resetWorker = await startPasswordResetRequests({ db: services.db, config, log: services.log }, (email) =>
    app.modules.accounts.sendResetEmail(email),
  );
  const url = `http://${publicHost}:${port}`;
  const settled = async (count: string, timeoutMs: number) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { rows } = await services.db.query<{ n: number }>(count);
      if (Number(rows[0]!.n) === 0) return;
      if (Date.now() > deadline) throw new Error(`${rows[0]!.n} rows still pending in the outbox after ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };
  const admin = await services.db.query<{ user_id: string; organization_id: string }>(
    'SELECT m.user_id, m.organization_id FROM memberships m JOIN users u ON u.id = m.user_id WHERE lower(u.email) = lower($1)',
    [ADMIN_EMAIL],
  );
  return {
    url,
    config,
    services,
    app,
    smtp,
    mailWorker,
    // e-mails, and the reset requests that may still write one (modules/identity/reset-requests.ts)
    mailSettled: (timeoutMs = 15_000) =>
      settled(`SELECT count(*)::int AS n FROM outbox WHERE state = 'pending' AND kind IN ('email', 'password_reset_request')`, timeoutMs),
    // everything of the outbox but webhook deliveries (tests start their lane themselves)
    outboxSettled: (timeoutMs = 15_000) =>
      settled(`SELECT count(*)::int AS n FROM outbox WHERE state = 'pending' AND kind <> 'webhook'`, timeoutMs),
    adminUserId: admin.rows[0]!.user_id,
    rootOrganizationId: admin.rows[0]!.organization_id,
    client: () => new HttpClient(url),
    async sessionFor(userId) {
      const client = new HttpClient(url);
      client.cookies.set('pp_session', await services.sessions.create(userId, false));
      return client;
    },
    async close() {
      // the answers of a status their route does not declare (http/declared-statuses.ts): each is a
      // fault of the route's declaration (the OpenAPI document clients are built from), so the test
      // file fails once its portal is closed; with UNDECLARED_ANSWERS_LOG set they are also written there
      const undeclared = undeclaredAnswersReport(app.undeclaredAnswers);
      if (process.env.UNDECLARED_ANSWERS_LOG)
        appendFileSync(process.env.UNDECLARED_ANSWERS_LOG, undeclared.map((line) => `${line}\n`).join(''));
      await app.close();
      await mailWorker.stop();
      await logoutWorker.stop();
      await resetWorker.stop();
      await closeServices(services);
      await smtp.stop();
      await database?.drop();
      if (undeclared.length > 0) throw new UndeclaredAnswersError(undeclared);
    },
  };
}

/** The answers of a status their route does not declare, one line each, each once. */
export function undeclaredAnswersReport(answers: readonly UndeclaredAnswer[]): string[] {
  return [...new Set(answers.map((a) => `${a.method} ${a.route} → ${a.status}${a.problem ? ` ${a.problem}` : ''}`))];
}

/** What a portal's close() throws when its routes answered a status they do not declare (http/declared-statuses.ts). */
export class UndeclaredAnswersError extends Error {
  constructor(readonly answers: string[]) {
    super(
      `answers of a status their route does not declare in its schema (apps/server/src/http/declared-statuses.ts):\n${answers.join('\n')}`,
    );
    this.name = 'UndeclaredAnswersError';
  }
}

/**
 * A test file's portal with what the file builds on it first (a fixture of organizations and
 * members, a world): `({ portal, built: f } = await startPortalWith(buildFixture))` in its beforeAll.
 * A build that fails closes the portal again.
 */
export async function startPortalWith<T>(
  build: (portal: TestPortal) => Promise<T>,
  env: Record<string, string> = {},
): Promise<{ portal: TestPortal; built: T }> {
  const portal = await startPortal(env);
  try {
    return { portal, built: await build(portal) };
  } catch (error) {
    await portal.close();
    throw error;
  }
}
