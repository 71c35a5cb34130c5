import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  passkeyIdParamsSchema,
  passkeyLoginRequestSchema,
  passkeyRenameRequestSchema,
  safeReturnPath,
  webauthnOptionsSchema,
} from '@partner-portal/contracts';
import { noContent, problems, routes } from '../../http/route-kit.js';
import type { Oidc } from '../../oidc/runtime.js';
import { validReturnUrl } from '../../oidc/return-url.js';
import { CHALLENGE_TTL_SECONDS, type Passkeys } from './passkeys.js';
import type { SecondStep } from './second-step.js';
import {
  changedBy,
  clearSignInCookie,
  PASSKEY_COOKIE,
  SECOND_STEP_COOKIE,
  setSignInCookie,
  signInAnswer,
  startProvenSession,
  tags,
} from './shared-routes.js';

/**
 * Passkeys (passkeys.ts): renamed and removed by the signed-in user, and signing in with one,
 * alone or as the second step. Setting one up is in enrolment-routes.ts.
 */
export const passkeyRoutes: FastifyPluginAsyncZod<{ oidc: Oidc; passkeys: Passkeys; secondStep: SecondStep }> = async (
  app,
  { oidc, passkeys, secondStep },
) => {
  const route = routes(app, tags);
  const { services } = app;

  route('PATCH /api/factors/passkeys/:passkeyId', {
    summary: 'Rename a passkey',
    params: passkeyIdParamsSchema,
    body: passkeyRenameRequestSchema,
    response: { 204: noContent, ...problems(400, 401, 404) },
    handler: async (request, reply) =>
      changedBy(request, reply, (user) => passkeys.rename(user, request.params.passkeyId, request.body.name)),
  });

  route('DELETE /api/factors/passkeys/:passkeyId', {
    summary: 'Remove a passkey (password or code within 5 minutes)',
    params: passkeyIdParamsSchema,
    response: { 204: noContent, ...problems(400, 401, 403, 404) },
    handler: async (request, reply) => changedBy(request, reply, (user) => passkeys.remove(user, request.params.passkeyId)),
  });

  route('POST /api/identity/passkey-options', {
    summary: 'WebAuthn request options for signing in with a passkey (conditional UI at the e-mail step)',
    response: { 200: webauthnOptionsSchema },
    handler: async (_request, reply) => {
      void reply.header('cache-control', 'no-store');
      const { options, passkeyCookie } = await passkeys.loginOptions();
      setSignInCookie(reply, PASSKEY_COOKIE, passkeyCookie, CHALLENGE_TTL_SECONDS);
      return options;
    },
  });

  route('POST /api/identity/passkey-login', {
    summary: 'Sign in with a passkey alone, or complete the second step with one',
    body: passkeyLoginRequestSchema,
    response: signInAnswer,
    handler: async (request, reply) => {
      // the challenge is used once, whatever the answer
      clearSignInCookie(reply, PASSKEY_COOKIE);
      const { cookies, body, ip } = request;
      const session = await passkeys.login(
        { ...body, passkeyCookie: cookies[PASSKEY_COOKIE], secondStepCookie: cookies[SECOND_STEP_COOKIE], ip },
        async () => (await validReturnUrl(oidc, services.db, body.return_url)) ?? safeReturnPath(body.return_path),
      );
      return startProvenSession(secondStep, request, reply, session);
    },
  });
};
