import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  confirmIdentityRequestSchema,
  factorsResponseSchema,
  memberIdParamsSchema,
  recoveryCodesResponseSchema,
} from '@partner-portal/contracts';
import type { Oidc } from '../../oidc/runtime.js';
import { ACTOR_ROUTE, noContent, problems, routes } from '../../http/route-kit.js';
import { enrolmentRoutes } from './enrolment-routes.js';
import { passkeyRoutes } from './passkey-routes.js';
import { policyRoutes } from './policy-routes.js';
import type { FactorServices } from './services.js';
import { changedBy, tags } from './shared-routes.js';
import { signInRoutes } from './sign-in-routes.js';

/**
 * Second factors of the signed-in user (docs/second-factors.md): what they have, removing the
 * authenticator app, new recovery codes, confirming the identity again, and an administrator's
 * reset of a member's factors. With them: setting a factor up (enrolment-routes.ts), the second
 * step of the sign-in (sign-in-routes.ts), passkeys (passkey-routes.ts) and the policy
 * (policy-routes.ts). HTTP only: cookies and the address are read into values for the services
 * (services.ts), and their results become the answer (cookies, the session).
 */
export const factorRoutes: FastifyPluginAsyncZod<{ oidc: Oidc; factors: FactorServices }> = async (app, { oidc, factors }) => {
  const route = routes(app, tags);
  const { services } = app;
  const { authenticatorApp, secondStep } = factors;

  route('GET /api/factors', {
    summary: 'The second factors of the signed-in user',
    response: { 200: factorsResponseSchema, ...problems(401) },
    handler: async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      return factors.overview.status(await services.sessions.require(request));
    },
  });

  route('DELETE /api/factors/totp', {
    summary: 'Remove the authenticator app (and the recovery codes)',
    response: { 204: noContent, ...problems(401, 403, 404) },
    handler: async (request, reply) => changedBy(request, reply, (user) => authenticatorApp.remove(user)),
  });

  route('POST /api/factors/recovery-codes', {
    summary: 'A new set of ten recovery codes (shown once); the old ones stop working',
    response: { 200: recoveryCodesResponseSchema, ...problems(401, 403, 409) },
    handler: async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      return authenticatorApp.regenerateRecoveryCodes(await services.sessions.require(request));
    },
  });

  route('POST /api/factors/confirm-identity', {
    summary: 'Check the password or a code again: for five minutes the session may change the password or the factors',
    body: confirmIdentityRequestSchema,
    response: { 204: noContent, ...problems(400, 401, 409, 429) },
    handler: async (request, reply) =>
      changedBy(request, reply, (user) => factors.recentAuthentication.confirmIdentity(user, request.ip, request.body)),
  });

  route('DELETE /api/members/:memberId/second-factors', {
    summary:
      "Reset a member's second factors (userManager of the member's subtree, as for changing their rights); audited, the member is told by e-mail",
    params: memberIdParamsSchema,
    response: { 204: noContent, ...problems(400, 401, 403, 404) },
    config: ACTOR_ROUTE,
    handler: async (request, reply) => {
      await factors.memberReset.reset(await request.actor(), request.params.memberId);
      return reply.code(204).send(null);
    },
  });

  await app.register(enrolmentRoutes, { authenticatorApp, passkeys: factors.passkeys, secondStep });
  await app.register(signInRoutes, { secondStep });
  await app.register(passkeyRoutes, { oidc, passkeys: factors.passkeys, secondStep });
  await app.register(policyRoutes, { policy: factors.policy });
};
