import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { connectionPolicySchema, connectionPolicyUpdateSchema, organizationIdParamsSchema } from '@partner-portal/contracts';
import { actorRoutes, noContent } from '../../http/route-kit.js';
import type { ConnectionPolicies } from './service.js';

/** The connection policy of an organization (the operating contract, "Setup links for a dealer's IT person"). */
export const connectionPolicyRoutes: FastifyPluginAsyncZod<{ connectionPolicies: ConnectionPolicies }> = async (
  app,
  { connectionPolicies },
) => {
  const route = actorRoutes(app, ['connection policy']);

  route('GET /api/organizations/:organizationId/connection-policy', {
    summary:
      'Whether the organizations below this one may connect identity providers, directories and setup links (sub_organizations_may_connect: its own setting or the one it inherits, true when none), whether it may itself (may_connect), and the organization whose setting applies (set_by, null when none). Any manager of the organization',
    params: organizationIdParamsSchema,
    response: { 200: connectionPolicySchema },
    answer: (actor, { params }) => connectionPolicies.get(actor, params.organizationId),
  });

  route('PUT /api/organizations/:organizationId/connection-policy', {
    summary:
      'Allow or forbid the organizations strictly below this one to create SSO connections, SCIM tokens and setup links (409 connections_not_allowed when forbidden). organizationManager of the organization or an ancestor; people only (403 service_account_not_allowed); audited',
    params: organizationIdParamsSchema,
    body: connectionPolicyUpdateSchema,
    response: { 204: noContent },
    answer: (actor, { params, body }) => connectionPolicies.set(actor, params.organizationId, body.sub_organizations_may_connect),
  });
};
