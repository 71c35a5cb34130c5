import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { organizationIdParamsSchema, secondFactorPolicyRequestSchema, secondFactorPolicySchema } from '@partner-portal/contracts';
import { ACTOR_ROUTE, problems, routes } from '../../http/route-kit.js';
import type { FactorPolicy } from './policy.js';
import { tags } from './shared-routes.js';

/** The second-factor policy that follows the organization tree (policy.ts). */
export const policyRoutes: FastifyPluginAsyncZod<{ policy: FactorPolicy }> = async (app, { policy }) => {
  const route = routes(app, tags);
  route('GET /api/organizations/:organizationId/second-factor-policy', {
    summary: 'Whether the organization requires a second factor, and where the requirement comes from (managers of its subtree)',
    params: organizationIdParamsSchema,
    response: { 200: secondFactorPolicySchema, ...problems(400, 401, 403, 404) },
    config: ACTOR_ROUTE,
    handler: async (request) => policy.get(await request.actor(), request.params.organizationId),
  });

  route('PUT /api/organizations/:organizationId/second-factor-policy', {
    summary:
      'Require a second factor for the organization and its subtree, or lift a requirement set here (organizationManagers of its subtree)',
    params: organizationIdParamsSchema,
    body: secondFactorPolicyRequestSchema,
    response: { 200: secondFactorPolicySchema, ...problems(400, 401, 403, 404, 409) },
    config: ACTOR_ROUTE,
    handler: async (request) => policy.set(await request.actor(), request.params.organizationId, request.body.required),
  });
};
