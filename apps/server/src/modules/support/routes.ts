import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  memberIdParamsSchema,
  organizationIdParamsSchema,
  ownSupportSessionsSchema,
  supportAccessSchema,
  supportAccessUpdateSchema,
  supportSessionCreatedSchema,
  supportSessionIdParamsSchema,
  supportSessionRequestSchema,
} from '@partner-portal/contracts';
import { actorRoutes, noContent, routes } from '../../http/route-kit.js';
import type { SupportSessions } from './service.js';

const tags = ['support'];

/** Support access and support sessions (service.ts has the rules; docs/api.md, "Support sessions"). */
export const supportRoutes: FastifyPluginAsyncZod<{ support: SupportSessions }> = async (app, { support }) => {
  const route = actorRoutes(app, tags);
  /** the routes that make their own answer (headers, redirects, no actor) */
  const handled = routes(app, tags);

  route('GET /api/organizations/:organizationId/support-access', {
    summary:
      'Whether support may act as the organization’s members: its own setting, the effective one and the organization that decides it',
    params: organizationIdParamsSchema,
    response: { 200: supportAccessSchema },
    answer: (actor, { params }) => support.access(actor, params.organizationId),
  });

  route('PUT /api/organizations/:organizationId/support-access', {
    summary: 'Allow or refuse support access for the organization and its subtree (organizationManagers of it or an ancestor; people only)',
    description:
      'Inherited down the tree; a child may only narrow it. Allowing it below an ancestor that refuses is stored and shown as overridden (GET: effective false, set_by the ancestor).',
    params: organizationIdParamsSchema,
    body: supportAccessUpdateSchema,
    response: { 204: noContent },
    problems: [400, 401, 403, 404],
    answer: (actor, { params, body }) => support.setAccess(actor, params.organizationId, body.allowed),
  });

  route('POST /api/members/:memberId/support-sessions', {
    summary: 'Make a support session as a member; its url, followed in the caller’s browser, starts it',
    description:
      'Only a userManager of a strict ancestor of the member’s organization who holds every right the member holds, where support access is effectively allowed, never for a member who may manage the caller’s organization; a person, not in a support session.',
    params: memberIdParamsSchema,
    body: supportSessionRequestSchema,
    response: { 201: supportSessionCreatedSchema },
    problems: [400, 401, 403, 404],
    answer: (actor, { params, body }) => support.create(actor, params.memberId, body),
  });

  route('GET /api/me/support-sessions', {
    summary: 'The signed-in user’s support sessions: who, when, how long and why',
    response: { 200: ownSupportSessionsSchema },
    problems: [401, 403],
    answer: (actor) => support.own(actor),
  });

  handled('GET /api/support-sessions/:supportSessionId/start', {
    summary: 'Start a support session in the browser that made it: the browser is the member’s until it ends, then /',
    params: supportSessionIdParamsSchema,
    response: { 303: z.null().describe('To the portal, as the member') },
    problems: [400, 401, 403, 404, 409],
    handler: async (request, reply) => {
      await support.start(request, reply, await request.actor(), request.params.supportSessionId);
      return reply.header('cache-control', 'no-store').redirect('/', 303);
    },
  });

  handled('DELETE /api/support-sessions/:supportSessionId', {
    summary: 'End a support session (its supporter, within it or from their own session); a browser in it is the supporter’s again',
    params: supportSessionIdParamsSchema,
    response: { 204: noContent },
    problems: [400, 401, 403, 404],
    handler: async (request, reply) => {
      await support.end(request, reply, await request.actor(), request.params.supportSessionId);
      return reply.code(204).send(null);
    },
  });
};
