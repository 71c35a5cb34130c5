import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  organizationIdParamsSchema,
  scimTokenCreatedSchema,
  scimTokenCreateSchema,
  scimTokenParamsSchema,
  scimTokenSchema,
} from '@partner-portal/contracts';
import { actorRoutes, noContent } from '../../http/route-kit.js';
import type { ScimTokens } from './tokens.js';

/** The /api calls of directories' SCIM tokens (docs/integrations.md, "SCIM 2.0"); the SCIM endpoints themselves are routes.ts. */
export const scimTokenRoutes: FastifyPluginAsyncZod<{ scimTokens: ScimTokens }> = async (app, { scimTokens }) => {
  const route = actorRoutes(app, ['scim']);

  route('POST /api/organizations/:organizationId/scim-tokens', {
    summary: 'Make a SCIM token for a directory of the organization (userManager of the organization)',
    description:
      'The token is in this answer only (it is kept as a hash): the directory calls $PUBLIC_URL/scim/v2 with `Authorization: Bearer <token>`. ' +
      'It acts on the organization and its sub-organizations with the rights of its maker at this moment, and is audited as `SCIM: <name>`. ' +
      '409 too_many_scim_tokens past ten tokens of one organization.',
    params: organizationIdParamsSchema,
    body: scimTokenCreateSchema,
    response: { 201: scimTokenCreatedSchema },
    answer: (actor, { params, body }) => scimTokens.create(actor, params.organizationId, body),
  });

  route('GET /api/organizations/:organizationId/scim-tokens', {
    summary: 'The SCIM tokens of the organization, without their secrets (userManager of the organization)',
    params: organizationIdParamsSchema,
    response: { 200: z.array(scimTokenSchema) },
    answer: (actor, { params }) => scimTokens.list(actor, params.organizationId),
  });

  route('DELETE /api/organizations/:organizationId/scim-tokens/:tokenId', {
    summary: 'Delete a SCIM token: requests with it are refused from now on (userManager of the organization)',
    params: scimTokenParamsSchema,
    response: { 204: noContent },
    answer: (actor, { params }) => scimTokens.remove(actor, params.organizationId, params.tokenId),
  });
};
