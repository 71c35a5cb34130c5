import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  acceptInvitationRequestSchema,
  invitationCodeQuerySchema,
  invitationCreatedResponseSchema,
  invitationIdParamsSchema,
  invitationRequestSchema,
  invitationSchema,
  organizationIdParamsSchema,
} from '@partner-portal/contracts';
import type { InvitationAcceptance } from './acceptance.js';
import type { Invitations } from './service.js';
import { actorRoutes, noContent, noContentAfter, routes } from '../../http/route-kit.js';

const tags = ['invitations'];
const params = invitationIdParamsSchema;

/** Invitations (docs/product.md, "Calls" Invitations, and POST /api/organizations/{id}/invitations). */
export const invitationRoutes: FastifyPluginAsyncZod<{ invitations: Invitations; invitationAcceptance: InvitationAcceptance }> = async (
  app,
  { invitations, invitationAcceptance },
) => {
  const route = actorRoutes(app, tags);
  /** the routes that make their own answer (headers, redirects, no actor) */
  const handled = routes(app, tags);

  route('POST /api/organizations/:organizationId/invitations', {
    summary:
      'Invite an e-mail address to an organization (userManager); the e-mail goes out in the invitation’s language (default: the inviter’s)',
    params: organizationIdParamsSchema,
    body: invitationRequestSchema,
    response: { 201: invitationCreatedResponseSchema },
    answer: (actor, { params, body }) => invitations.create(actor, params.organizationId, body),
  });

  handled('GET /api/invitations/:invitationId', {
    summary:
      'Read an invitation (no login); the code of the link is optional, but a wrong or old one is refused; unknown id or wrong code → 404 unknown_invitation',
    params,
    querystring: invitationCodeQuerySchema,
    response: { 200: invitationSchema },
    problems: [400, 404],
    handler: async (request, reply) => {
      const invitation = await invitations.read(request.params.invitationId, request.query.code);
      return reply.header('cache-control', 'no-store').send(invitation);
    },
  });

  /** The calls on a pending invitation by its manager: they answer 204, or 409 when it is no longer pending. */
  const pendingOnly = { params, response: { 204: noContent } };
  route('PUT /api/invitations/:invitationId/resend', {
    summary: 'Send a pending invitation again with a new code (userManager)',
    ...pendingOnly,
    answer: (actor, { params }) => invitations.resend(actor, params.invitationId),
  });
  route('PUT /api/invitations/:invitationId/revoke', {
    summary: 'Revoke a pending invitation (userManager); irreversible',
    ...pendingOnly,
    answer: (actor, { params }) => invitations.revoke(actor, params.invitationId),
  });

  handled('PUT /api/invitations/:invitationId/accept', {
    summary:
      'Accept a pending invitation (no login): native accounts register with a password; external accounts are linked at their first upstream login',
    params,
    body: acceptInvitationRequestSchema,
    response: { 204: noContent },
    problems: [400, 404, 409],
    handler: async (request, reply) =>
      noContentAfter(reply, invitationAcceptance.accept(request.params.invitationId, request.body, request.id)),
  });
};
