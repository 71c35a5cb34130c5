import { isIP } from 'node:net';
import { z } from 'zod';

/**
 * The only reader of process.env. Every variable of the README is parsed here;
 * invalid configuration stops the server at start with a message naming each bad variable.
 */

const bool = z.enum(['true', 'false', '1', '0', 'yes', 'no']).transform((v) => v === 'true' || v === '1' || v === 'yes');
const port = z.coerce.number({ message: 'must be a port number' }).int().min(0).max(65535);
const positiveInt = z.coerce.number({ message: 'must be a whole number' }).int().positive();
/** A delay in seconds, whole or decimal ('0.05'): the retry bases, which tests shorten below a second. */
const positiveSeconds = z.coerce.number({ message: 'must be a number of seconds' }).positive();
const url = (protocols: string[], what: string) =>
  z.string().refine(
    (v) => {
      try {
        return protocols.includes(new URL(v).protocol);
      } catch {
        return false;
      }
    },
    { message: `must be ${what}` },
  );

/** A resolver's port: 1 to 65535 (Node's resolver aborts the whole process on port 0). */
function isResolverPort(port: string | undefined): boolean {
  return port === undefined || (Number(port) >= 1 && Number(port) <= 65535);
}

/** An IP address, or ip:port ([v6]:port), as dns.Resolver#setServers takes it. */
function isResolverAddress(value: string): boolean {
  const bracketed = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(value);
  if (bracketed) return isIP(bracketed[1]!) === 6 && isResolverPort(bracketed[2]);
  if (isIP(value)) return true;
  const withPort = /^([^:]+):(\d{1,5})$/.exec(value);
  return !!withPort && isIP(withPort[1]!) === 4 && isResolverPort(withPort[2]);
}

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: port.default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  PUBLIC_URL: url(['http:', 'https:'], 'an http(s) URL').optional(),
  DATABASE_URL: url(['postgres:', 'postgresql:'], 'a postgres:// URL').optional(),
  DATABASE_POOL_SIZE: positiveInt.max(200).default(10),
  DATA_DIR: z.string().min(1).default('./data'),
  BOOTSTRAP_ADMIN_EMAIL: z.email({ message: 'must be an e-mail address' }).default('admin@example.com'),
  BOOTSTRAP_ADMIN_PASSWORD: z.string().min(8, { message: 'must be at least 8 characters' }).optional(),
  PROVIDER_ORGANIZATION_NAME: z.string().min(1).max(100).default('Nedap'),
  SMTP_URL: url(['smtp:', 'smtps:'], 'an smtp:// or smtps:// URL').optional(),
  MAIL_FROM: z.string().min(3).default('Partner Portal <no-reply@localhost>'),
  // e-mails the mail server did not take (modules/mail/schedule.ts): the first retry after
  // MAIL_RETRY_BASE_SECONDS, at most 25 so that it comes within 30 s with its jitter; later ones
  // twice as late each, at most 4 hours apart (20 attempts, at least a day). Decimal seconds are
  // taken ('0.05', for tests that wait on retries)
  MAIL_RETRY_BASE_SECONDS: positiveSeconds.max(25).default(15),
  DCR_INITIAL_ACCESS_TOKEN: z.string().min(16, { message: 'must be at least 16 characters' }).optional(),
  EXTERNAL_IDP_ISSUER: url(['http:', 'https:'], 'an http(s) URL').optional(),
  EXTERNAL_IDP_CLIENT_ID: z.string().min(1).optional(),
  EXTERNAL_IDP_CLIENT_SECRET: z.string().min(1).optional(),
  EXTERNAL_IDP_NAME: z.string().min(1).default('External identity provider'),
  EXTERNAL_IDP_EMAIL_DOMAINS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((d) => d.trim().toLowerCase().replace(/^@/, ''))
        .filter(Boolean),
    ),
  // verified domains (modules/domains): the resolvers asked for TXT records, comma-separated ip or
  // ip:port ([v6]:port); unset: the system's. Domains are looked at again every DOMAIN_RECHECK_HOURS.
  DNS_SERVERS: z
    .string()
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .pipe(
      z.array(
        z
          .string()
          .refine((s) => isResolverAddress(s), { message: 'must be a comma-separated list of ip, ip:port or [ipv6]:port (port 1-65535)' }),
      ),
    )
    .optional(),
  DOMAIN_RECHECK_HOURS: positiveInt.max(24 * 30).default(24),
  // how long one DNS question waits for an answer (ms); it is asked twice (modules/domains/dns.ts)
  DNS_TIMEOUT_MS: positiveInt.max(30_000).default(2000),
  // outgoing calls (SSO discovery and sign-in, back-channel logout, webhooks) to loopback and private
  // addresses are refused in production unless this is true (http/outbound.ts)
  OUTBOUND_ALLOW_PRIVATE_NETWORKS: bool.default(false),
  // webhooks (modules/webhooks): the first retry after WEBHOOK_RETRY_BASE_SECONDS, later ones growing
  // from it (eight attempts over about a day at the default); an answer must come within
  // WEBHOOK_TIMEOUT_SECONDS; finished deliveries are kept WEBHOOK_RETENTION_DAYS. The base may be a
  // decimal number of seconds ('0.05', for tests); back-channel logouts and audit streams retry by it too
  WEBHOOK_RETRY_BASE_SECONDS: positiveSeconds.max(3600).default(30),
  WEBHOOK_TIMEOUT_SECONDS: positiveInt.max(60).default(10),
  WEBHOOK_RETENTION_DAYS: positiveInt.max(3650).default(30),
  REDIS_URL: url(['redis:', 'rediss:'], 'a redis:// URL').optional(),
  SESSION_SECRET: z.string().min(32, { message: 'must be at least 32 characters' }).optional(),
  KEY_ENCRYPTION_KEY: z.string().min(32, { message: 'must be at least 32 characters' }).optional(),
  SESSION_TTL_SECONDS: positiveInt.default(8 * 3600),
  REMEMBER_ME_TTL_SECONDS: positiveInt.default(30 * 24 * 3600),
  // the per-instance session cache (docs/decisions/010-reads-and-grants.md): longest life of an entry, 0 = off
  SESSION_CACHE_TTL_SECONDS: z.coerce.number({ message: 'must be a whole number' }).int().min(0).max(3600).default(30),
  SESSION_CACHE_MAX_ENTRIES: positiveInt.default(50_000),
  // megabytes each of the three caches (sessions, accounts, clients) holds at most (http/session-cache.ts)
  SESSION_CACHE_MAX_MB: positiveInt.max(4096).default(16),
  INVITATION_TTL_HOURS: positiveInt.default(14 * 24),
  RESET_TOKEN_TTL_SECONDS: positiveInt.default(3600),
  ACCESS_TOKEN_TTL_SECONDS: positiveInt.default(3600),
  REFRESH_TOKEN_TTL_SECONDS: positiveInt.default(14 * 24 * 3600),
  // signing algorithms of the provider's keys (oidc/keys.ts): RS256 always; ES256 for clients that register it
  OIDC_SIGNING_ALGS: z
    .string()
    .default('RS256')
    .transform((v) => [
      ...new Set([
        'RS256',
        ...v
          .split(',')
          .map((a) => a.trim())
          .filter(Boolean),
      ]),
    ])
    .pipe(z.array(z.enum(['RS256', 'ES256'], { message: 'must be a comma-separated list of RS256 and ES256' }))),
  // limits and their reasons: docs/security.md, "Limits and thresholds"
  RATE_LIMIT_MAX: positiveInt.default(3000),
  RATE_LIMIT_SESSION_MAX: positiveInt.default(600),
  // requests per window of one service account's bearer tokens (http/bearer.ts)
  RATE_LIMIT_SERVICE_ACCOUNT_MAX: positiveInt.default(600),
  // requests per window of one directory's SCIM token (http/credentials.ts)
  RATE_LIMIT_DIRECTORY_MAX: positiveInt.default(1200),
  RATE_LIMIT_WINDOW_SECONDS: positiveInt.default(60),
  LOGIN_RATE_LIMIT_PER_ACCOUNT: positiveInt.default(10),
  LOGIN_RATE_LIMIT_PER_IP: positiveInt.default(100),
  LOGIN_RATE_LIMIT_PER_DEVICE: positiveInt.default(10),
  LOGIN_RATE_LIMIT_WINDOW_SECONDS: positiveInt.default(900),
  // access requests (modules/access-requests): per requested e-mail address and per client address,
  // counted like forgot-password e-mails (identity/login-throttle.ts throttleAccountAndIp)
  ACCESS_REQUEST_RATE_LIMIT_PER_EMAIL: positiveInt.default(3),
  ACCESS_REQUEST_RATE_LIMIT_PER_IP: positiveInt.default(30),
  ACCESS_REQUEST_RATE_LIMIT_WINDOW_SECONDS: positiveInt.default(3600),
  DEVICE_COOKIE_TTL_SECONDS: positiveInt.default(180 * 24 * 3600),
  TRUST_PROXY: bool.default(false),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // one line per answered request at LOG_LEVEL info (http/access-log.ts)
  ACCESS_LOG: bool.default(true),
  PRIVACY_STATEMENT_URL: url(['http:', 'https:'], 'an http(s) URL').default('https://www.nedap.com/privacy-statement/'),
  EULA_URL: z.string().min(1).default('/documents/end-user-licence-agreement.pdf'),
  SALES_CONTACT_EMAIL: z.email({ message: 'must be an e-mail address' }).default('sales@example.com'),
  LOGIN_VIDEO_URL: z.string().min(1).default('/media/pasture.webm'),
  WEB_DIST_DIR: z.string().min(1).optional(),
  // operations (README, "Operations")
  METRICS_ENABLED: bool.default(false),
  METRICS_TOKEN: z.string().min(16, { message: 'must be at least 16 characters' }).optional(),
  SHUTDOWN_TIMEOUT_SECONDS: positiveInt.max(3600).default(25),
  OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: z.coerce.number({ message: 'must be a whole number' }).int().min(0).default(0),
  OVERLOAD_MAX_HEAP_USED_MB: z.coerce.number({ message: 'must be a whole number' }).int().min(0).optional(),
  OVERLOAD_MAX_RSS_MB: z.coerce.number({ message: 'must be a whole number' }).int().min(0).default(0),
  OVERLOAD_RETRY_AFTER_SECONDS: positiveInt.max(3600).default(10),
  OTEL_EXPORTER_OTLP_ENDPOINT: url(['http:', 'https:'], 'an http(s) URL').optional(),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: url(['http:', 'https:'], 'an http(s) URL').optional(),
  OTEL_SERVICE_NAME: z.string().min(1).default('partner-portal'),
});

export type Env = z.output<typeof envSchema>;

export interface Config extends Env {
  publicUrl: string;
  isProduction: boolean;
  isHttps: boolean;
  externalIdp: { issuer: string; clientId: string; clientSecret: string | undefined; name: string; emailDomains: string[] } | null;
  /** where traces are sent (OTLP over HTTP), or null: no tracing */
  tracesEndpoint: string | null;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Parse the environment (process.env by default). Throws ConfigError naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.') || 'environment'}: ${i.message}`));
  }
  const e = parsed.data;
  const problems: string[] = [];
  const externalSet = [e.EXTERNAL_IDP_ISSUER, e.EXTERNAL_IDP_CLIENT_ID].filter(Boolean).length;
  if (externalSet === 1) problems.push('EXTERNAL_IDP_ISSUER and EXTERNAL_IDP_CLIENT_ID: set both or neither');
  if (problems.length) throw new ConfigError(problems);
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  return {
    ...e,
    publicUrl,
    isProduction: e.NODE_ENV === 'production',
    isHttps: publicUrl.startsWith('https:'),
    tracesEndpoint:
      e.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ??
      (e.OTEL_EXPORTER_OTLP_ENDPOINT ? `${e.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, '')}/v1/traces` : null),
    externalIdp:
      e.EXTERNAL_IDP_ISSUER && e.EXTERNAL_IDP_CLIENT_ID
        ? {
            issuer: e.EXTERNAL_IDP_ISSUER,
            clientId: e.EXTERNAL_IDP_CLIENT_ID,
            clientSecret: e.EXTERNAL_IDP_CLIENT_SECRET,
            name: e.EXTERNAL_IDP_NAME,
            emailDomains: e.EXTERNAL_IDP_EMAIL_DOMAINS,
          }
        : null,
  };
}
