import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  changePasswordRequestSchema,
  consentRequestSchema,
  contextResponseSchema,
  emailLoginRequestSchema,
  errorMessageSchema,
  forgotPasswordRequestSchema,
  loginConsentResponseSchema,
  loginRequestSchema,
  logoutRequestSchema,
  logoutResponseSchema,
  resetPasswordRequestSchema,
  safeReturnPath,
  updateProfileRequestSchema,
  userInfoSchema,
  validateTokenRequestSchema,
  validateTokenResponseSchema,
  type LoginConsentResponse,
  type UserInfo,
} from '@partner-portal/contracts';
import { AppError } from '../../http/problem.js';
import { userInfoBody } from './user-info.js';
import { redirectToError } from '../../oidc/errors.js';
import type { Oidc } from '../../oidc/runtime.js';
import { clearProviderSessionCookies, PROVIDER_SESSION_COOKIE } from '../../oidc/logout.js';
import { validReturnUrl } from '../../oidc/return-url.js';
import { EXTERNAL_CALLBACK_PATH } from '../../oidc/upstream.js';
import type { AccountAccess } from '../sessions/service.js';
import { FactorService, SECOND_STEP_COOKIE, SECOND_STEP_TTL_SECONDS, secondStepCookieOptions } from '../factors/service.js';
import * as login from './login.js';
import { DEVICE_COOKIE, deviceCookieOptions } from './login-throttle.js';
import * as account from './account.js';
import { accountForUpstreamIdentity } from './upstream-link.js';

const EXTERNAL_COOKIE = 'pp_external';
const tags = ['identity'];

/**
 * The Identity calls of docs/product.md, "Calls" under /api/identity. HTTP only: the request is
 * read into values for login.ts, account.ts and upstream-link.ts, and their results become the
 * answer (cookies, sessions, redirects).
 */
export const identityRoutes: FastifyPluginAsyncZod<{ oidc: Oidc; access: AccountAccess }> = async (app, { oidc, access }) => {
  const { services } = app;
  const factors = new FactorService(services, oidc);
  void login.dummyPasswordHash();

  app.get(
    '/api/identity/context',
    {
      schema: {
        tags,
        summary: 'Who asks for the login',
        querystring: z.object({ returnUrl: z.string().max(2000).optional() }),
        response: { 200: contextResponseSchema },
      },
    },
    async (request) => login.context(oidc, request.query.returnUrl),
  );

  app.post(
    '/api/identity/email-login',
    {
      schema: {
        tags,
        summary: 'Login step 1: password or external login',
        body: emailLoginRequestSchema,
        response: { 200: loginConsentResponseSchema },
      },
    },
    async (request) => login.emailLogin(services, oidc, request.body),
  );

  app.post(
    '/api/identity/login',
    { schema: { tags, summary: 'Login step 2: password', body: loginRequestSchema, response: { 200: loginConsentResponseSchema } } },
    async (request, reply) => {
      const { body } = request;
      const remember = body.remember === true;
      const { deviceCookie, signedIn } = await login.checkPassword(
        services,
        oidc,
        { ...body, ip: request.ip, deviceCookie: request.cookies[DEVICE_COOKIE] },
        // one write: the second step's or the session's, each with the login's own writes (alongside)
        async ({ userId, returnUrl, secondFactor, alongside }): Promise<LoginConsentResponse> => {
          const returnTo = returnUrl ?? safeReturnPath(body.return_path);
          const secondStep = await factors.afterPassword(userId, { remember, returnTo, alongside }, secondFactor);
          if (secondStep) {
            void reply.setCookie(SECOND_STEP_COOKIE, secondStep.secondStepCookie, {
              ...secondStepCookieOptions(services.config.isHttps),
              maxAge: SECOND_STEP_TTL_SECONDS,
            });
            return secondStep.response;
          }
          await services.sessions.start(request, reply, userId, remember, undefined, alongside);
          services.metrics.login(true);
          return { error: null, valid_return_url: returnTo, external_login: null };
        },
      );
      void reply.setCookie(DEVICE_COOKIE, deviceCookie, deviceCookieOptions(services.config));
      return signedIn;
    },
  );

  app.post(
    '/api/identity/consent',
    {
      schema: {
        tags,
        summary: 'Grant or deny the consent a client asks for',
        body: consentRequestSchema,
        response: { 200: loginConsentResponseSchema },
      },
    },
    async (request) => login.consent(services, oidc, await services.sessions.require(request), request.body),
  );

  const errorQuery = z.object({ errorId: z.string({ message: 'required_field' }).min(1, { message: 'required_field' }).max(200) });
  app.get(
    '/api/identity/error',
    { schema: { tags, summary: 'The error of a failed authorization', querystring: errorQuery, response: { 200: errorMessageSchema } } },
    async (request) => login.errorMessage(oidc, request.query.errorId),
  );
  app.get(
    '/api/identity/login-error',
    { schema: { tags, summary: 'The error of a failed external login', querystring: errorQuery, response: { 200: errorMessageSchema } } },
    async (request) => login.errorMessage(oidc, request.query.errorId),
  );

  app.post(
    '/api/identity/logout',
    {
      schema: {
        tags,
        summary: 'Log out of the portal and the provider; logoutId (of an RP-initiated logout) in the query, or in a JSON body',
        querystring: logoutRequestSchema,
        body: logoutRequestSchema.nullish(),
        response: { 200: logoutResponseSchema },
      },
    },
    async (request, reply) => {
      await services.sessions.end(request, reply);
      const { response, endedProviderSession } = await login.logout(services, oidc, {
        logoutId: request.query.logoutId ?? request.body?.logoutId,
        providerSessionCookie: request.cookies[PROVIDER_SESSION_COOKIE],
      });
      if (endedProviderSession) clearProviderSessionCookies(request, reply);
      return response;
    },
  );

  app.get(
    '/api/identity/user-info',
    { schema: { tags, summary: 'The signed-in user', response: { 200: userInfoSchema } } },
    async (request, reply) => {
      const user = await services.sessions.require(request, { allowPendingPasswordChange: true });
      // already JSON (userInfoBody): a string with a JSON content type is sent as it is; the
      // schema above describes it (the cast only tells the type provider so)
      return reply
        .header('cache-control', 'no-store')
        .type('application/json; charset=utf-8')
        .send(userInfoBody(user) as unknown as UserInfo);
    },
  );

  app.post(
    '/api/identity/change-password',
    {
      schema: {
        tags,
        summary: 'Change the password (native accounts)',
        description:
          'The other browsers signed in as the user are signed out, and every grant and token of the user’s clients is revoked (back-channel logout); this browser stays signed in to the portal.',
        body: changePasswordRequestSchema,
        response: { 204: z.null() },
      },
    },
    async (request, reply) => {
      const user = await services.sessions.require(request, { allowPendingPasswordChange: true });
      await account.changePassword(services, oidc, access, user, request.body);
      return reply.code(204).send(null);
    },
  );

  app.put(
    '/api/identity/update-profile',
    { schema: { tags, summary: 'Update names and language', body: updateProfileRequestSchema, response: { 204: z.null() } } },
    async (request, reply) => {
      await account.updateProfile(services, await services.sessions.require(request), request.body);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/identity/forgot-password',
    { schema: { tags, summary: 'Send a reset link (always 204)', body: forgotPasswordRequestSchema, response: { 204: z.null() } } },
    async (request, reply) => {
      await account.forgotPassword(services, oidc, request.ip, request.body.email_address);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/identity/validate-reset-token',
    {
      schema: {
        tags,
        summary: 'Whether a reset link still works',
        body: validateTokenRequestSchema,
        response: { 200: validateTokenResponseSchema },
      },
    },
    async (request) => account.validateResetToken(services, request.body),
  );

  app.put(
    '/api/identity/reset-password',
    {
      schema: {
        tags,
        summary: 'Set a new password with a reset link',
        description: 'Every session of the user ends, and every grant and token of the user’s clients is revoked (back-channel logout).',
        body: resetPasswordRequestSchema,
        response: { 200: z.object({}) },
      },
    },
    async (request) => {
      await account.resetPassword(services, oidc, access, request.ip, request.body);
      return {};
    },
  );

  // ---- external identity provider (browser navigations, protected by state/nonce/PKCE) ----------

  const loginError = (request: FastifyRequest, reply: FastifyReply, description: string | null) =>
    redirectToError(oidc.errors, request, reply, 'login', 'external_login_failed', description);
  const cookieOptions = { path: EXTERNAL_CALLBACK_PATH, httpOnly: true, sameSite: 'lax' as const, secure: services.config.isHttps };

  app.get(
    '/api/identity/challenge-external-login',
    {
      schema: {
        tags,
        summary: 'Start a login at the external identity provider (browser navigation)',
        querystring: z.object({
          returnUrl: z.string().max(2000).optional(),
          invitationLogin: z.string().max(100).optional(),
          scheme: z.string().max(100).optional(),
          callback: z.string().max(2000).optional(),
          loginHint: z.string().max(100).optional(),
        }),
      },
    },
    async (request, reply) => {
      if (!oidc.upstream) throw new AppError('not_found');
      const returnUrl = await validReturnUrl(oidc, services.db, request.query.returnUrl).catch(() => null);
      let start;
      try {
        start = await oidc.upstream.start(request.query.loginHint);
      } catch (err) {
        request.log.warn({ err }, 'external identity provider unavailable');
        return loginError(request, reply, 'The external identity provider could not be reached.');
      }
      const id = await oidc.externalLogins.create({
        state: start.state,
        nonce: start.nonce,
        codeVerifier: start.codeVerifier,
        returnUrl,
        invitationLogin: request.query.invitationLogin ?? null,
      });
      void reply.setCookie(EXTERNAL_COOKIE, id, { ...cookieOptions, maxAge: 900 });
      return reply.header('cache-control', 'no-store').redirect(start.url, 303);
    },
  );

  app.get(
    EXTERNAL_CALLBACK_PATH,
    {
      schema: {
        tags,
        summary: 'Return from the external identity provider (browser navigation)',
        querystring: z
          .object({
            returnUrl: z.string().max(2000).optional(),
            invitationLogin: z.string().max(100).optional(),
            remoteError: z.string().max(500).optional(),
            error: z.string().max(200).optional(),
            error_description: z.string().max(1000).optional(),
          })
          .passthrough(),
      },
    },
    async (request, reply) => {
      if (!oidc.upstream) throw new AppError('not_found');
      const id = request.cookies[EXTERNAL_COOKIE];
      void reply.clearCookie(EXTERNAL_COOKIE, cookieOptions);
      const record = await oidc.externalLogins.find(id);
      if (!record || !id) return loginError(request, reply, 'The external login expired or was started in another browser.');
      await oidc.externalLogins.destroy(id);
      const { error, error_description: errorDescription, remoteError } = request.query;
      if (error || remoteError) {
        // upstream (or attacker-chosen) text is logged for the operator, never shown: the login page
        // shows the portal's own message for the portal's own error code (docs/security.md)
        request.log.warn(
          { upstream_error: error, upstream_error_description: errorDescription ?? remoteError },
          'external login refused upstream',
        );
        return loginError(request, reply, null);
      }
      let identity;
      try {
        identity = await oidc.upstream.finish(new URL(request.url, services.config.publicUrl), record);
      } catch (err) {
        request.log.warn({ err }, 'external login failed');
        return loginError(request, reply, 'The answer of the external identity provider could not be verified.');
      }
      const user = await accountForUpstreamIdentity(services.db, oidc.upstream, identity);
      if (!user)
        return loginError(request, reply, 'No portal account is linked to this identity. Ask your administrator for an invitation.');
      await services.sessions.start(request, reply, user.id, false);
      const returnUrl = record.returnUrl ? await validReturnUrl(oidc, services.db, record.returnUrl).catch(() => null) : null;
      return reply.header('cache-control', 'no-store').redirect(returnUrl ?? '/', 303);
    },
  );
};
