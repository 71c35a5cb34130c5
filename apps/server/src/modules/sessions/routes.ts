import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { accountSessionsResponseSchema, endedSessionsResponseSchema, sessionIdParamsSchema } from '@partner-portal/contracts';
import { PROVIDER_SESSION_COOKIE } from '../../oidc/logout.js';
import * as service from './service.js';
import { noContent, problems } from '../../http/route-kit.js';

const tags = ['identity'];

/** The signed-in user's own portal sessions (the profile page lists them). */
export const sessionRoutes: FastifyPluginAsyncZod<{ access: service.AccountAccess }> = async (app, { access }) => {
  const { services } = app;

  app.get(
    '/api/identity/sessions',
    {
      schema: {
        tags,
        summary: 'The signed-in user’s active sessions: browser, address, started, last seen, and which one is this one',
        response: { 200: accountSessionsResponseSchema, ...problems(401) },
      },
    },
    async (request, reply) =>
      reply.header('cache-control', 'no-store').send(await service.listSessions(services, await services.sessions.require(request))),
  );

  app.delete(
    '/api/identity/sessions/:sessionId',
    {
      schema: {
        tags,
        summary: 'End one of the user’s other sessions (204 also when it is already gone); the current one ends by logging out (409)',
        params: sessionIdParamsSchema,
        response: { 204: noContent, ...problems(400, 401, 409) },
      },
    },
    async (request, reply) => {
      await service.endSession(services, await services.sessions.require(request), request.params.sessionId);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/identity/sessions/end-others',
    {
      schema: {
        tags,
        summary: 'End every session of the user except this one',
        description:
          'The clients signed in through the other sessions lose their grants and tokens and get back-channel logout; this browser keeps its own.',
        response: { 200: endedSessionsResponseSchema, ...problems(401) },
      },
    },
    async (request) => {
      const user = await services.sessions.require(request);
      const providerSession = request.cookies[PROVIDER_SESSION_COOKIE];
      return service.endOtherSessions(services, access, user, providerSession && providerSession.length <= 200 ? providerSession : null);
    },
  );
};
