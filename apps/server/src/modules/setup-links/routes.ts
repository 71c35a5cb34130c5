import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  organizationIdParamsSchema,
  SETUP_SESSION_COOKIE,
  setupLinkCreatedSchema,
  setupLinkCreateSchema,
  setupLinkInfoSchema,
  setupLinkParamsSchema,
  setupLinkSchema,
  setupSessionCreateSchema,
  setupTokenParamsSchema,
} from '@partner-portal/contracts';
import type { Config } from '../../config.js';
import { actorRoutes, noContent, routes } from '../../http/route-kit.js';
import { SETUP_SESSION_HOURS, type SetupLinkOpening } from './opening.js';
import type { SetupLinks } from './service.js';

const tags = ['setup links'];

/** Where the setup session's cookie is sent: the API only. */
export const SETUP_COOKIE_PATH = '/api';

/** Setup links (the operating contract, "Setup links for a dealer's IT person"): the managers' calls and the setup page's. */
export const setupLinkRoutes: FastifyPluginAsyncZod<{ setupLinks: SetupLinks; opening: SetupLinkOpening; config: Config }> = async (
  app,
  { setupLinks, opening, config },
) => {
  const route = actorRoutes(app, tags);
  /** the routes that make their own answer (headers, redirects, no actor) */
  const handled = routes(app, tags);

  route('POST /api/organizations/:organizationId/setup-links', {
    summary:
      'Make a setup link for a dealer’s IT person and e-mail it to `email` in the caller’s language. Each capability as the caller holds it: domains, sso and audit_streams as an organizationManager of the organization, scim as a userManager (403 otherwise); people only (403 service_account_not_allowed); 409 connections_not_allowed when a higher organization forbids connecting. `url` ($PUBLIC_URL/setup/<token>) is in this answer and the e-mail only',
    params: organizationIdParamsSchema,
    body: setupLinkCreateSchema,
    response: { 201: setupLinkCreatedSchema },
    answer: (actor, { params, body }) => setupLinks.create(actor, params.organizationId, body),
  });

  route('GET /api/organizations/:organizationId/setup-links', {
    summary: 'The organization’s setup links with their state: pending, opened, expired or revoked (any manager of the organization)',
    params: organizationIdParamsSchema,
    response: { 200: z.array(setupLinkSchema) },
    answer: (actor, { params }) => setupLinks.list(actor, params.organizationId),
  });

  route('DELETE /api/organizations/:organizationId/setup-links/:linkId', {
    summary: 'Revoke a setup link: it and its setup session end at once (any manager of the organization)',
    params: setupLinkParamsSchema,
    response: { 204: noContent },
    answer: (actor, { params }) => setupLinks.revoke(actor, params.organizationId, params.linkId),
  });

  handled('GET /api/setup/:token', {
    summary:
      'What a setup link is, for the page its holder opens (no account): the organization, the capabilities, its state, the masked address and whether this browser holds its setup session. Unknown, expired and revoked links: 404 unknown_setup_link',
    params: setupTokenParamsSchema,
    response: { 200: setupLinkInfoSchema },
    problems: [400, 404],
    handler: async (request) => opening.info(request.params.token, request.cookies[SETUP_SESSION_COOKIE]),
  });

  handled('POST /api/setup/:token/code', {
    summary:
      'E-mail a one-time code (8 digits, 10 minutes) to the link’s address; the previous code ends. Limited per link and per client address (429)',
    params: setupTokenParamsSchema,
    response: { 202: noContent },
    problems: [400, 404, 429],
    handler: async (request, reply) => {
      await opening.sendCode(request.params.token, request.ip);
      return reply.code(202).send(null);
    },
  });

  handled('POST /api/setup/:token/session', {
    summary:
      'Trade the one-time code for the setup session: 204 with its cookie (HttpOnly, SameSite=Lax, for /api), and the link is opened. A wrong or spent code: 400 invalid_code (five wrong answers end a code); guesses are limited per link and per client address (429)',
    params: setupTokenParamsSchema,
    body: setupSessionCreateSchema,
    response: { 204: noContent },
    problems: [400, 404, 429],
    handler: async (request, reply) => {
      const secret = await opening.openSession(request.params.token, request.body.code, request.ip, request.id);
      void reply.setCookie(SETUP_SESSION_COOKIE, secret, {
        path: SETUP_COOKIE_PATH,
        httpOnly: true,
        sameSite: 'lax',
        secure: config.isHttps || config.isProduction,
        maxAge: SETUP_SESSION_HOURS * 3600,
      });
      return reply.code(204).send(null);
    },
  });
};
