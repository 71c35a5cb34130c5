import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import helmet from 'helmet';
import { jsonSchemaTransform, jsonSchemaTransformObject, serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { registerCsrfGuard } from './http/csrf.js';
import { AppError, registerProblemHandlers, sendProblem } from './http/problem.js';
import { registerRateLimit } from './http/rate-limit.js';
import { healthRoutes } from './modules/health/routes.js';
import { identityRoutes } from './modules/identity/routes.js';
import { registerOidc } from './oidc/index.js';
import { auditRoutes } from './modules/audit/routes.js';
import { developerRoutes } from './modules/developer/routes.js';
import { factorRoutes } from './modules/factors/routes.js';
import { invitationRoutes } from './modules/invitations/routes.js';
import { memberRoutes } from './modules/members/routes.js';
import { organizationRoutes } from './modules/organizations/routes.js';
import { portalRoutes } from './modules/portal/routes.js';
import { registerWebApp } from './modules/web/static.js';
import type { Services } from './services.js';

export const DEFAULT_WEB_DIST = fileURLToPath(new URL('../../web/dist/', import.meta.url));

/** Build the whole portal on the given services: plugins first, then the modules. */
export async function buildApp(services: Services): Promise<FastifyInstance> {
  const { config } = services;
  const app = Fastify({
    loggerInstance: services.log,
    trustProxy: config.TRUST_PROXY,
    bodyLimit: 1024 * 1024,
    routerOptions: { maxParamLength: 200 },
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.-]{1,100}$/.test(given) ? given : randomUUID();
    },
    // a malformed URL (bad percent-encoding) is answered before routing: as a problem too
    frameworkErrors: (error, request, reply) => {
      void sendProblem(request, reply, new AppError('validation_failed', { detail: error.message }));
    },
  }).withTypeProvider<ZodTypeProvider>() as unknown as FastifyInstance;

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('services', services);
  app.decorateRequest('sessionUserCache', undefined);
  app.addHook('onRequest', async (request, reply) => {
    void reply.header('x-request-id', request.id);
  });

  registerProblemHandlers(app);
  await app.register(fastifyCookie);
  // Security headers, made once: @fastify/helmet builds helmet's middleware again on every request
  // (measured at 7 % of the CPU of GET /api/identity/user-info, docs/performance.md).
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
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
  });
  app.addHook('onRequest', (request, reply, done) => {
    securityHeaders(request.raw, reply.raw, (err?: unknown) => done(err instanceof Error ? err : undefined));
  });
  await registerRateLimit(app, { counters: services.counters, max: config.RATE_LIMIT_MAX, windowSeconds: config.RATE_LIMIT_WINDOW_SECONDS });
  registerCsrfGuard(app);

  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Partner Portal API', version: '1.0.0', description: 'Every /api call needs the header X-CSRF: 1. Errors are RFC 9457 problem details.' },
      servers: [{ url: config.publicUrl }],
      components: { securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'pp_session' } } },
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs', staticCSP: true });

  // modules
  await app.register(healthRoutes);
  const oidc = await registerOidc(app);
  await app.register(identityRoutes, { oidc });
  await app.register(organizationRoutes);
  await app.register(invitationRoutes);
  await app.register(memberRoutes);
  await app.register(portalRoutes);
  await app.register(auditRoutes);
  await app.register(developerRoutes);
  await app.register(factorRoutes, { oidc });

  await registerWebApp(app, config.WEB_DIST_DIR ?? DEFAULT_WEB_DIST);
  return app;
}
