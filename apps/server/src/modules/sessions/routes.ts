import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { accountSessionsResponseSchema, endedSessionsResponseSchema, sessionIdParamsSchema } from '@partner-portal/contracts';
import { PROVIDER_SESSION_COOKIE } from '../../oidc/logout.js';
import type { SessionList } from './service.js';
import { noContent, noContentAfter, routes } from '../../http/route-kit.js';

const tags = ['identity'];

/** The signed-in user's own portal sessions (the profile page lists them). */
export const sessionRoutes: FastifyPluginAsyncZod<{ sessionList: SessionList }> = async (app, { sessionList }) => {
  const handled = routes(app, tags);
  const { sessions } = app.services;

  handled('GET /api/identity/sessions', {
    summary: 'The signed-in user’s active sessions: browser, address, started, last seen, and which one is this one',
    response: { 200: accountSessionsResponseSchema },
    problems: [401],
    handler: async (request, reply) =>
      reply.header('cache-control', 'no-store').send(await sessionList.list(await sessions.require(request))),
  });

  handled('DELETE /api/identity/sessions/:sessionId', {
    summary: 'End one of the user’s other sessions (204 also when it is already gone); the current one ends by logging out (409)',
    params: sessionIdParamsSchema,
    response: { 204: noContent },
    problems: [400, 401, 409],
    handler: async (request, reply) => noContentAfter(reply, sessionList.end(await sessions.require(request), request.params.sessionId)),
  });

  handled('POST /api/identity/sessions/end-others', {
    summary: 'End every session of the user except this one',
    description:
      'The clients signed in through the other sessions lose their grants and tokens and get back-channel logout; this browser keeps its own.',
    response: { 200: endedSessionsResponseSchema },
    problems: [401],
    handler: async (request) => {
      const user = await sessions.require(request);
      const providerSession = request.cookies[PROVIDER_SESSION_COOKIE];
      return sessionList.endOthers(user, providerSession && providerSession.length <= 200 ? providerSession : null);
    },
  });
};
