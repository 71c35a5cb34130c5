import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  factorsResponseSchema,
  loginConsentResponseSchema,
  memberIdParamsSchema,
  organizationIdParamsSchema,
  passkeyIdParamsSchema,
  passkeyLoginRequestSchema,
  passkeyRegistrationRequestSchema,
  passkeyRenameRequestSchema,
  passkeySchema,
  recoveryCodesResponseSchema,
  confirmIdentityRequestSchema,
  secondFactorLoginRequestSchema,
  secondFactorPolicyRequestSchema,
  secondFactorPolicySchema,
  totpConfirmRequestSchema,
  totpEnrolmentResponseSchema,
  webauthnOptionsSchema,
  safeReturnPath,
  type LoginConsentResponse,
} from '@partner-portal/contracts';
import { AppError } from '../../http/problem.js';
import type { Oidc } from '../../oidc/runtime.js';
import type { AccountAccess } from '../sessions/service.js';
import { validReturnUrl } from '../../oidc/return-url.js';
import { CHALLENGE_TTL_SECONDS, PASSKEY_COOKIE, PasskeyService, passkeyCookieOptions } from './passkeys.js';
import { getPolicy, setPolicy } from './policy.js';
import { FactorService, SECOND_STEP_COOKIE, secondStepCookieOptions, type Enrollee, type ProvenSession } from './service.js';
import { problems } from '../../http/route-kit.js';
import { findPerson } from './queries.js';

const tags = ['second factors'];

/**
 * Second factors of the signed-in user, and the second step of the sign-in (docs/second-factors.md).
 * HTTP only: cookies and the address are read into values for service.ts and passkeys.ts, and their
 * results become the answer (cookies, the session).
 */
export const factorRoutes: FastifyPluginAsyncZod<{ oidc: Oidc; access: AccountAccess }> = async (app, { oidc, access }) => {
  const { services } = app;
  const service = new FactorService(services, oidc);
  const passkeys = new PasskeyService(services, service);
  // the return addresses a sign-in may go to are the login's rules (no open redirects)

  /** The signed-in user, or a sign-in that has to enrol a factor before its session starts. */
  const enrolleeOf = async (request: FastifyRequest): Promise<Enrollee> => {
    const pending = await service.pendingSecondStep(request.cookies[SECOND_STEP_COOKIE]);
    if (pending?.step.must_enrol) {
      const person = await findPerson(services.db, pending.step.user_id);
      if (person)
        return { kind: 'second-step', userId: pending.step.user_id, email: person.email, idHash: pending.idHash, step: pending.step };
    }
    const user = await services.sessions.current(request);
    if (!user) throw new AppError('unauthorized');
    // accounts of the external identity provider use the factors of that provider
    if (user.externalIdentityProvider) throw new AppError('external_identity_user');
    return { kind: 'session', userId: user.id, email: user.email, sessionIdHash: user.sessionIdHash };
  };

  /** Start the session of a completed sign-in (ending its second step's cookie) and answer where it returns to. */
  const startProvenSession = async (
    request: FastifyRequest,
    reply: FastifyReply,
    session: ProvenSession,
  ): Promise<LoginConsentResponse> => {
    if (session.clearSecondStepCookie) void reply.clearCookie(SECOND_STEP_COOKIE, secondStepCookieOptions(services.config.isHttps));
    const secret = await services.sessions.start(request, reply, session.userId, session.persistent);
    await service.recordSessionAuthentication(secret, session.amr);
    return { error: null, valid_return_url: session.returnTo, external_login: null, next_step: null };
  };

  app.get(
    '/api/factors',
    { schema: { tags, summary: 'The second factors of the signed-in user', response: { 200: factorsResponseSchema, ...problems(401) } } },
    async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      return service.status(await services.sessions.require(request));
    },
  );

  app.post(
    '/api/factors/totp',
    {
      schema: {
        tags,
        summary: 'Start setting up an authenticator app: secret, otpauth URI and QR code (also during a sign-in that must enrol)',
        response: { 200: totpEnrolmentResponseSchema, ...problems(401, 409) },
      },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      return service.startTotp(await enrolleeOf(request));
    },
  );

  app.post(
    '/api/factors/totp/confirm',
    {
      schema: {
        tags,
        summary: 'Confirm the authenticator app with a first code; answers the ten recovery codes (shown once)',
        body: totpConfirmRequestSchema,
        response: { 200: recoveryCodesResponseSchema.extend({ valid_return_url: z.string().nullish() }), ...problems(400, 401, 409, 429) },
      },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      const { session, ...confirmed } = await service.confirmTotp(request.ip, await enrolleeOf(request), request.body.code);
      if (!session) return confirmed;
      return { ...confirmed, valid_return_url: (await startProvenSession(request, reply, session)).valid_return_url };
    },
  );

  app.delete(
    '/api/factors/totp',
    {
      schema: {
        tags,
        summary: 'Remove the authenticator app (and the recovery codes)',
        response: { 204: z.null(), ...problems(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await service.removeTotp(await services.sessions.require(request));
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/factors/recovery-codes',
    {
      schema: {
        tags,
        summary: 'A new set of ten recovery codes (shown once); the old ones stop working',
        response: { 200: recoveryCodesResponseSchema, ...problems(401, 403) },
      },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      return service.regenerateRecoveryCodes(await services.sessions.require(request));
    },
  );

  app.post(
    '/api/factors/confirm-identity',
    {
      schema: {
        tags,
        summary: 'Check the password or a code again: for five minutes the session may change the password or the factors',
        body: confirmIdentityRequestSchema,
        response: { 204: z.null(), ...problems(400, 401, 409, 429) },
      },
    },
    async (request, reply) => {
      await service.confirmIdentity(request.ip, await services.sessions.require(request), request.body);
      return reply.code(204).send(null);
    },
  );

  app.delete(
    '/api/members/:memberId/second-factors',
    {
      schema: {
        tags,
        summary:
          "Reset a member's second factors (userManager of the member's subtree, as for changing their rights); audited, the member is told by e-mail",
        params: memberIdParamsSchema,
        response: { 204: z.null(), ...problems(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await service.resetMemberFactors(await request.actor(), request.params.memberId);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/identity/second-factor',
    {
      schema: {
        tags,
        summary: 'Login step 3 (accounts with a second factor): a code of the authenticator app or a recovery code',
        body: secondFactorLoginRequestSchema,
        response: { 200: loginConsentResponseSchema, ...problems(400, 409, 429) },
      },
    },
    async (request, reply) =>
      startProvenSession(
        request,
        reply,
        await service.completeSecondStep({
          secondStepCookie: request.cookies[SECOND_STEP_COOKIE],
          ip: request.ip,
          code: request.body.code,
        }),
      ),
  );

  // ---- passkeys ----------------------------------------------------------------------------------

  app.post(
    '/api/factors/passkeys/registration-options',
    {
      schema: {
        tags,
        summary: 'WebAuthn creation options for a new passkey (password or code within 5 minutes; also during a sign-in that must enrol)',
        response: { 200: webauthnOptionsSchema, ...problems(401, 403) },
      },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      return passkeys.registrationOptions(await enrolleeOf(request));
    },
  );

  app.post(
    '/api/factors/passkeys',
    {
      schema: {
        tags,
        summary:
          'Keep a new passkey (the browser’s answer to the creation options) under a name; the first factor brings recovery codes; a sign-in that must enrol gets its session',
        body: passkeyRegistrationRequestSchema,
        response: {
          201: z.object({ passkey: passkeySchema, recovery_codes: z.array(z.string()).nullable(), valid_return_url: z.string().nullish() }),
          ...problems(400, 401, 409),
        },
      },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      const { session, ...registered } = await passkeys.register(await enrolleeOf(request), request.body);
      if (!session) return reply.code(201).send(registered);
      return reply
        .code(201)
        .send({ ...registered, valid_return_url: (await startProvenSession(request, reply, session)).valid_return_url });
    },
  );

  app.patch(
    '/api/factors/passkeys/:passkeyId',
    {
      schema: {
        tags,
        summary: 'Rename a passkey',
        params: passkeyIdParamsSchema,
        body: passkeyRenameRequestSchema,
        response: { 204: z.null(), ...problems(400, 401, 404) },
      },
    },
    async (request, reply) => {
      await passkeys.rename(await services.sessions.require(request), request.params.passkeyId, request.body.name);
      return reply.code(204).send(null);
    },
  );

  app.delete(
    '/api/factors/passkeys/:passkeyId',
    {
      schema: {
        tags,
        summary: 'Remove a passkey (password or code within 5 minutes)',
        params: passkeyIdParamsSchema,
        response: { 204: z.null(), ...problems(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await passkeys.remove(await services.sessions.require(request), request.params.passkeyId);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/identity/passkey-options',
    {
      schema: {
        tags,
        summary: 'WebAuthn request options for signing in with a passkey (conditional UI at the e-mail step)',
        response: { 200: webauthnOptionsSchema },
      },
    },
    async (_request, reply) => {
      void reply.header('cache-control', 'no-store');
      const { options, passkeyCookie } = await passkeys.loginOptions();
      void reply.setCookie(PASSKEY_COOKIE, passkeyCookie, {
        ...passkeyCookieOptions(services.config.isHttps),
        maxAge: CHALLENGE_TTL_SECONDS,
      });
      return options;
    },
  );

  app.post(
    '/api/identity/passkey-login',
    {
      schema: {
        tags,
        summary: 'Sign in with a passkey alone, or complete the second step with one',
        body: passkeyLoginRequestSchema,
        response: { 200: loginConsentResponseSchema, ...problems(400, 409, 429) },
      },
    },
    async (request, reply) => {
      // the challenge is used once, whatever the answer
      void reply.clearCookie(PASSKEY_COOKIE, passkeyCookieOptions(services.config.isHttps));
      const session = await passkeys.login(
        {
          ...request.body,
          passkeyCookie: request.cookies[PASSKEY_COOKIE],
          secondStepCookie: request.cookies[SECOND_STEP_COOKIE],
          ip: request.ip,
        },
        async () => (await validReturnUrl(oidc, services.db, request.body.return_url)) ?? safeReturnPath(request.body.return_path),
      );
      return startProvenSession(request, reply, session);
    },
  );

  // ---- the policy that follows the organization tree --------------------------------------------

  app.get(
    '/api/organizations/:organizationId/second-factor-policy',
    {
      schema: {
        tags,
        summary: 'Whether the organization requires a second factor, and where the requirement comes from (managers of its subtree)',
        params: organizationIdParamsSchema,
        response: { 200: secondFactorPolicySchema, ...problems(400, 401, 403, 404) },
      },
    },
    async (request) => getPolicy(services.db, await request.actor(), request.params.organizationId),
  );

  app.put(
    '/api/organizations/:organizationId/second-factor-policy',
    {
      schema: {
        tags,
        summary:
          'Require a second factor for the organization and its subtree, or lift a requirement set here (organizationManagers of its subtree)',
        params: organizationIdParamsSchema,
        body: secondFactorPolicyRequestSchema,
        response: { 200: secondFactorPolicySchema, ...problems(400, 401, 403, 404, 409) },
      },
    },
    async (request) => setPolicy(services.db, access, await request.actor(), request.params.organizationId, request.body.required),
  );
};
