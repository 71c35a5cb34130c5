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
import * as service from './service.js';
import { acceptInvitation } from './acceptance.js';
import { noContent, problems } from '../../http/route-kit.js';

/** Invitations (docs/product.md, "Calls" Invitations, and POST /api/organizations/{id}/invitations). */
export const invitationRoutes: FastifyPluginAsyncZod = async (app) => {
  const { services } = app;
  const deps = { db: services.db, config: services.config, mailer: services.mailer };

  app.post(
    '/api/organizations/:organizationId/invitations',
    {
      schema: {
        tags: ['invitations'],
        summary:
          'Invite an e-mail address to an organization (userManager); the e-mail goes out in the invitation’s language (default: the inviter’s)',
        params: organizationIdParamsSchema,
        body: invitationRequestSchema,
        response: { 201: invitationCreatedResponseSchema, ...problems(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await service.createInvitation(deps, await request.actor(), request.params.organizationId, request.body)),
  );

  app.get(
    '/api/invitations/:invitationId',
    {
      schema: {
        tags: ['invitations'],
        summary:
          'Read an invitation (no login); the code of the link is optional, but a wrong or old one is refused; unknown id or wrong code → 404 unknown_invitation',
        params: invitationIdParamsSchema,
        querystring: invitationCodeQuerySchema,
        response: { 200: invitationSchema, ...problems(400, 404) },
      },
    },
    async (request, reply) => {
      const invitation = await service.readInvitation(services.db, request.params.invitationId, request.query.code);
      return reply.header('cache-control', 'no-store').send(invitation);
    },
  );

  app.put(
    '/api/invitations/:invitationId/resend',
    {
      schema: {
        tags: ['invitations'],
        summary: 'Send a pending invitation again with a new code (userManager)',
        params: invitationIdParamsSchema,
        response: { 204: noContent, ...problems(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await service.resendInvitation(deps, await request.actor(), request.params.invitationId);
      return reply.code(204).send(null);
    },
  );

  app.put(
    '/api/invitations/:invitationId/revoke',
    {
      schema: {
        tags: ['invitations'],
        summary: 'Revoke a pending invitation (userManager); irreversible',
        params: invitationIdParamsSchema,
        response: { 204: noContent, ...problems(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await service.revokeInvitation(services.db, await request.actor(), request.params.invitationId);
      return reply.code(204).send(null);
    },
  );

  app.put(
    '/api/invitations/:invitationId/accept',
    {
      schema: {
        tags: ['invitations'],
        summary:
          'Accept a pending invitation (no login): native accounts register with a password; external accounts are linked at their first upstream login',
        params: invitationIdParamsSchema,
        body: acceptInvitationRequestSchema,
        response: { 204: noContent, ...problems(400, 404, 409) },
      },
    },
    async (request, reply) => {
      await acceptInvitation(services.db, request.params.invitationId, request.body, request.id);
      return reply.code(204).send(null);
    },
  );
};
