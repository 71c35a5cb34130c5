import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  organizationIdParamsSchema,
  ssoConnectionCreatedSchema,
  ssoConnectionCreateSchema,
  ssoConnectionMembersSchema,
  ssoConnectionParamsSchema,
  ssoConnectionPatchSchema,
  ssoConnectionSchema,
} from '@partner-portal/contracts';
import { actorRoutes, noContent } from '../../http/route-kit.js';
import type { SsoConnections } from './service.js';

const tags = ['single sign-on'];

/** Single sign-on connections of an organization (the operating contract, "Single sign-on per organization"). */
export const ssoRoutes: FastifyPluginAsyncZod<{ ssoConnections: SsoConnections }> = async (app, { ssoConnections }) => {
  const route = actorRoutes(app, tags);

  route('POST /api/organizations/:organizationId/sso-connections', {
    summary:
      'Connect an OpenID Connect identity provider to an organization and its subtree (manager of the organization). Every domain verified at or above it (409 domain_not_verified); the issuer is discovered (409 sso_discovery_failed); no domain served by another connection (409 sso_domain_in_use). Register $PUBLIC_URL/api/identity/login-external-callback as its redirect URI; without client_secret the portal is a public client with PKCE',
    params: organizationIdParamsSchema,
    body: ssoConnectionCreateSchema,
    response: { 201: ssoConnectionCreatedSchema },
    answer: (actor, { params, body }) => ssoConnections.create(actor, params.organizationId, body),
  });

  route('GET /api/organizations/:organizationId/sso-connections', {
    summary:
      'The connections that apply to an organization: its own and its ancestors’ (organization_id tells), the EXTERNAL_IDP_* provider as the root organization’s (configured: true). Never a secret (userManager or organizationManager of the organization)',
    params: organizationIdParamsSchema,
    response: { 200: z.array(ssoConnectionSchema) },
    answer: (actor, { params }) => ssoConnections.list(actor, params.organizationId),
  });

  route('PATCH /api/organizations/:organizationId/sso-connections/:connectionId', {
    summary:
      'Change a connection of the organization (any field; the checks of a new one for what changes; client_secret null: a public client). An ancestor’s connection: 409 sso_connection_inherited; the configured one: 409 sso_connection_configured',
    params: ssoConnectionParamsSchema,
    body: ssoConnectionPatchSchema,
    response: { 204: noContent },
    answer: (actor, { params, body }) => ssoConnections.update(actor, params.organizationId, params.connectionId, body),
  });

  route('GET /api/organizations/:organizationId/sso-connections/:connectionId/members', {
    summary:
      'Who signs in through a connection of the organization once it is active: the members it serves (not those a nearer connection below serves), the first 200 by address, and their total. For its managers before they switch it on, off or delete it (organizationManager of the organization; a person)',
    params: ssoConnectionParamsSchema,
    response: { 200: ssoConnectionMembersSchema },
    answer: (actor, { params }) => ssoConnections.members(actor, params.organizationId, params.connectionId),
  });

  route('DELETE /api/organizations/:organizationId/sso-connections/:connectionId', {
    summary:
      'Remove a connection of the organization: its accounts are unlinked and signed out, and get a password through “forgot password”. An ancestor’s connection: 409 sso_connection_inherited; the configured one: 409 sso_connection_configured',
    params: ssoConnectionParamsSchema,
    response: { 204: noContent },
    answer: (actor, { params }) => ssoConnections.remove(actor, params.organizationId, params.connectionId),
  });
};
