import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import { constants as zlibConstants } from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import helmet from 'helmet';
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { SERVICE_ACCOUNT_SCOPE } from '@partner-portal/contracts';
import { AccessLog } from './http/access-log.js';
import { BearerAuth, registerBearerGuard } from './http/bearer.js';
import { RequestLogger } from './http/request-logger.js';
import { registerCsrfGuard } from './http/csrf.js';
import { readEmptyJsonBodiesAsNone } from './http/json-body.js';
import { checkDeclaredStatuses, type UndeclaredAnswer } from './http/declared-statuses.js';
import { registerMetrics } from './http/metrics.js';
import { registerOverloadProtection } from './http/overload.js';
import { AppError, registerProblemHandlers, sendProblem } from './http/problem.js';
import { registerRateLimit } from './http/rate-limit.js';
import { Credentials, registerCredentials } from './http/credentials.js';
import { registerSessionIndicator } from './http/session.js';
import { createModuleServices, type ModuleServices } from './module-services.js';
import { healthRoutes } from './modules/health/routes.js';
import { identityRoutes } from './modules/identity/routes.js';
import { registerOidc } from './oidc/index.js';
import { accessRequestRoutes } from './modules/access-requests/routes.js';
import { auditRoutes } from './modules/audit/routes.js';
import { developerRoutes } from './modules/developer/routes.js';
import { domainRoutes } from './modules/domains/routes.js';
import { bulkInvitationRoutes } from './modules/invitations/bulk-routes.js';
import { factorLoginPolicy } from './modules/factors/provider.js';
import { factorRoutes } from './modules/factors/routes.js';
import { invitationRoutes } from './modules/invitations/routes.js';
import { memberRoutes } from './modules/members/routes.js';
import { organizationDetailsRoutes } from './modules/organization-details/routes.js';
import { organizationRoutes } from './modules/organizations/routes.js';
import { portalRoutes } from './modules/portal/routes.js';
import { siteSettings } from './modules/portal/service.js';
import { serviceAccountLookups } from './modules/service-accounts/queries.js';
import { serviceAccountRoutes } from './modules/service-accounts/routes.js';
import { sessionRoutes } from './modules/sessions/routes.js';
import { clientCredentialsToken } from './oidc/service-account-clients.js';
import { ssoRoutes } from './modules/sso/routes.js';
import { registerWebApp } from './modules/web/static.js';
import { PrerenderedPages } from './modules/web/prerendered.js';
import { registerScim, SCIM_PREFIX, sendScimError } from './modules/scim/routes.js';
import { directoryLookups } from './modules/scim/tokens.js';
import { scimTokenRoutes } from './modules/scim/token-routes.js';
import { webhookRoutes } from './modules/webhooks/routes.js';
import { supportRoutes } from './modules/support/routes.js';
import { auditStreamRoutes } from './modules/audit-streams/routes.js';
import { connectionPolicyRoutes } from './modules/connection-policy/routes.js';
import { setupLinkLookups } from './modules/setup-links/lookups.js';
import { setupLinkRoutes } from './modules/setup-links/routes.js';
import type { Services } from './services.js';

export const DEFAULT_WEB_DIST = fileURLToPath(new URL('../../web/dist/', import.meta.url));

/**
 * Browser features the portal never uses, turned off for its pages and for anything framed in them
 * (Permissions-Policy, helmet has no option for it). Autoplay stays allowed: the login page's muted
 * background video plays by itself. Passkeys (WebAuthn) are the portal's own pages' only: creating
 * and using them is allowed for this origin and for nothing framed in it.
 */
export const PERMISSIONS_POLICY = [
  'accelerometer=()',
  'camera=()',
  'display-capture=()',
  'encrypted-media=()',
  'fullscreen=()',
  'geolocation=()',
  'gyroscope=()',
  'magnetometer=()',
  'microphone=()',
  'midi=()',
  'payment=()',
  'picture-in-picture=()',
  'publickey-credentials-create=(self)',
  'publickey-credentials-get=(self)',
  'screen-wake-lock=()',
  'sync-xhr=()',
  'usb=()',
  'xr-spatial-tracking=()',
].join(', ');

/**
 * Security headers that apply only to a document: its browsing context group and agent cluster,
 * its DNS prefetching, and old browsers' handling of HTML (downloads, cross-domain policy files,
 * the XSS auditor). The pages and the API's own documentation send them; JSON answers need not.
 */
const DOCUMENT_ONLY_HEADERS = new Set([
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
]);

/** Whether a request (by its URL as sent) is answered by the API or SCIM, not with a page. */
function isApiAnswer(url: string): boolean {
  return (url.startsWith('/api/') && !url.startsWith('/api/docs')) || url.startsWith(`${SCIM_PREFIX}/`);
}

/** Build the whole portal on the given services: plugins first, then the modules. */
export async function buildApp(services: Services): Promise<FastifyInstance> {
  const { config } = services;
  const app = Fastify({
    loggerInstance: services.log,
    trustProxy: config.TRUST_PROXY,
    bodyLimit: 1024 * 1024,
    routerOptions: { maxParamLength: 200 },
    // request ids are the server's own (they go into the audit log); a caller's X-Request-Id is only
    // logged beside them, as caller_request_id (docs/security.md)
    requestIdHeader: false,
    genReqId: () => randomUUID(),
    // Fastify's two lines per request made one line of the access log
    logController: new AccessLog(services.log, config.ACCESS_LOG),
    childLoggerFactory: (logger, bindings, options, raw) => new RequestLogger(logger, bindings, options, raw),
    // a malformed URL (bad percent-encoding) is answered before routing: as a problem too (a SCIM error on the SCIM endpoints)
    frameworkErrors: (error, request, reply) => {
      if (request.url.startsWith(`${SCIM_PREFIX}/`)) void sendScimError(reply, 400, 'invalidValue', error.message);
      else void sendProblem(request, reply, new AppError('validation_failed', { detail: error.message }));
    },
  }).withTypeProvider<ZodTypeProvider>() as unknown as FastifyInstance;

  readEmptyJsonBodiesAsNone(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('services', services);
  app.decorateRequest('sessionUser', undefined);
  app.decorateRequest('sessionIndicatorSet', false);
  app.decorateRequest('routerPathFound', undefined);

  registerProblemHandlers(app);
  app.decorate('undeclaredAnswers', []);
  if (!config.isProduction) {
    // logged at error level there, and collected here: a test fails on any (test/support/portal.ts)
    checkDeclaredStatuses(app, (answer) => app.undeclaredAnswers.push(answer));
  }
  // operations (README, "Operations"): traces first, so that they see every route
  await services.tracing?.register(app);
  await registerOverloadProtection(app);
  await registerMetrics(app);
  // JSON and other compressible answers above 1 KB, brotli (fast setting: the 10,000-organization
  // tree is 4 MB) or gzip as the client accepts; the web app's files come precompressed
  // (modules/web/static.ts), so they are not compressed again here.
  await app.register(fastifyCompress, {
    global: true,
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4 } },
  });
  await app.register(fastifyCookie);
  // Security headers, found once: helmet's options are fixed, so its middleware sets the same
  // headers on every answer; they are taken from one run of it and set as a list (@fastify/helmet
  // built the middleware again per request, 7 % of the CPU of GET /api/identity/user-info, and
  // helmet's own chain of middlewares was still 12 %: docs/performance.md, "Authenticated reads").
  // the pre-rendered pages' inline script is allowed by its hash (modules/web/prerendered.ts)
  const webDistDir = config.WEB_DIST_DIR ?? DEFAULT_WEB_DIST;
  const prerendered = PrerenderedPages.load(webDistDir, siteSettings(config));
  const securityHeaders = headersSetBy(
    helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'", ...prerendered.scriptHashes.map((hash) => `'${hash}'`)],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:'],
          fontSrc: ["'self'", 'data:'],
          mediaSrc: ["'self'"],
          connectSrc: ["'self'"],
          frameSrc: ["'self'", 'https:', ...(config.isProduction ? [] : ['http:'])],
          formAction: ["'self'", 'https:', ...(config.isProduction ? [] : ['http:'])],
          frameAncestors: ["'none'"],
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
        },
      },
      strictTransportSecurity: config.isHttps ? { maxAge: 31536000, includeSubDomains: true } : false,
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
      crossOriginEmbedderPolicy: false,
      crossOriginResourcePolicy: { policy: 'same-origin' },
    }),
  );
  securityHeaders.push(['permissions-policy', PERMISSIONS_POLICY]);
  // set on the reply, not on the raw answer: Node then writes the reply's headers as given, where
  // one header set on the raw answer sends every header through its setHeader again (its checks
  // and lowercasing, about a tenth of the CPU of GET /api/identity/user-info: docs/performance.md,
  // "Authenticated reads"); the provider's answers, which Fastify does not send, copy them
  // (oidc/index.ts)
  const securityHeaderFields = Object.fromEntries(securityHeaders.map(([name, value]) => [name.toLowerCase(), value]));
  // the API's answers (JSON, not documents) carry the headers that protect any answer and leave
  // out those only a document uses: each header costs every read about a microsecond of Node's
  // header work (docs/performance.md, "Authenticated reads")
  const apiHeaderFields = Object.fromEntries(Object.entries(securityHeaderFields).filter(([name]) => !DOCUMENT_ONLY_HEADERS.has(name)));
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(isApiAnswer(request.url) ? apiHeaderFields : securityHeaderFields);
    reply.header('x-request-id', request.id);
    done();
  });
  registerCsrfGuard(app);
  registerSessionIndicator(app, services.sessions);
  // service accounts' bearer tokens (http/bearer.ts): the provider's ClientCredentials model
  // (registered below; read at request time) and the account behind a token
  const bearer = new BearerAuth({
    lookups: { token: (value) => clientCredentialsToken(app.oidc.provider(), value), ...serviceAccountLookups(services.db) },
    scope: SERVICE_ACCOUNT_SCOPE,
    log: services.log,
  });
  // the one resolver of every credential into its actor (http/credentials.ts): sessions, service
  // accounts' bearer tokens, directories' SCIM tokens (the SQL: modules/scim/queries.ts)
  const credentials = new Credentials({
    sessions: services.sessions,
    bearer,
    directories: directoryLookups(services.db),
    setupLinks: setupLinkLookups(services.db),
  });
  registerCredentials(app, credentials);
  registerRateLimit(app, {
    counters: services.counters,
    credentials,
    perAddress: config.RATE_LIMIT_MAX,
    perSession: config.RATE_LIMIT_SESSION_MAX,
    perServiceAccount: config.RATE_LIMIT_SERVICE_ACCOUNT_MAX,
    perDirectory: config.RATE_LIMIT_DIRECTORY_MAX,
    windowSeconds: config.RATE_LIMIT_WINDOW_SECONDS,
  });
  registerBearerGuard(app, bearer);

  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Partner Portal API',
        version: '1.0.0',
        description:
          'Every /api call needs the header X-CSRF: 1, except a service account’s (Authorization: Bearer <token>, no cookie). Errors are RFC 9457 problem details.',
      },
      servers: [{ url: config.publicUrl }],
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'cookie', name: 'pp_session' },
          serviceAccount: {
            type: 'http',
            scheme: 'bearer',
            description: 'A service account’s token from POST /connect/token (client_credentials)',
          },
        },
      },
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs', staticCSP: true });

  // modules
  await app.register(healthRoutes);
  const oidc = await registerOidc(app, factorLoginPolicy(services.db));
  const modules = createModuleServices(services, oidc);
  app.decorate('modules', modules);
  const { factors } = modules;
  await app.register(identityRoutes, {
    oidc,
    accounts: modules.accounts,
    login: modules.login,
    secondStep: factors.secondStep,
    routing: modules.ssoRouting,
    externalLogin: modules.externalLogin,
  });
  await app.register(organizationRoutes, { organizations: modules.organizations });
  await app.register(organizationDetailsRoutes, { organizationDetails: modules.organizationDetails });
  await app.register(invitationRoutes, { invitations: modules.invitations, invitationAcceptance: modules.invitationAcceptance });
  await app.register(bulkInvitationRoutes, { bulkInvitations: modules.bulkInvitations });
  await app.register(memberRoutes, { members: modules.members, memberExport: modules.memberExport });
  await app.register(sessionRoutes, { sessionList: modules.sessionList });
  await app.register(portalRoutes, { portal: modules.portal });
  await app.register(auditRoutes, { auditTrail: modules.auditTrail });
  await app.register(developerRoutes, { developerExport: modules.developerExport });
  await app.register(factorRoutes, { oidc, factors });
  await app.register(accessRequestRoutes, { accessRequests: modules.accessRequests });
  await app.register(domainRoutes, { domains: modules.domains });
  await app.register(serviceAccountRoutes, { serviceAccounts: modules.serviceAccounts });
  await app.register(scimTokenRoutes, { scimTokens: modules.scimTokens });
  await registerScim(app, { scimUsers: modules.scimUsers });
  await app.register(ssoRoutes, { ssoConnections: modules.ssoConnections });
  await app.register(webhookRoutes, { webhooks: modules.webhooks });
  await app.register(supportRoutes, { support: modules.support });
  await app.register(auditStreamRoutes, { auditStreams: modules.auditStreams });
  await app.register(connectionPolicyRoutes, { connectionPolicies: modules.connectionPolicies });
  await app.register(setupLinkRoutes, { setupLinks: modules.setupLinks, opening: modules.setupLinkOpening, config: services.config });

  await registerWebApp(app, webDistDir, prerendered);
  return app;
}

/**
 * The headers a middleware of fixed options sets, from one run of it against a recording answer.
 * It must finish at once and only set headers (helmet's do, with no per-request directives).
 */
export function headersSetBy(
  middleware: (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void,
): [string, string][] {
  const headers: [string, string][] = [];
  let finished = false;
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers.push([name, Array.isArray(value) ? value.join(', ') : String(value)]);
    },
    removeHeader() {
      // nothing is set on an answer before this hook
    },
  };
  middleware({} as IncomingMessage, recorder as unknown as ServerResponse, (err) => {
    if (err) throw err instanceof Error ? err : new Error('the security headers middleware failed');
    finished = true;
  });
  if (!finished) throw new Error('the security headers middleware did not finish at once');
  return headers;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** the modules' services of this app (module-services.ts), for the background jobs (jobs.ts) */
    modules: ModuleServices;
    /** outside production, the answers of a status their route did not declare (http/declared-statuses.ts) */
    undeclaredAnswers: UndeclaredAnswer[];
  }
}
