import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  consentRequestSchema,
  contextResponseSchema,
  emailLoginRequestSchema,
  errorMessageSchema,
  loginConsentResponseSchema,
  loginRequestSchema,
  logoutRequestSchema,
  logoutResponseSchema,
  safeReturnPath,
  type LoginConsentResponse,
} from '@partner-portal/contracts';
import { routes } from '../../http/route-kit.js';
import { clearProviderSessionCookies, PROVIDER_SESSION_COOKIE } from '../../oidc/logout.js';
import { SECOND_STEP_TTL_SECONDS, type SecondStep } from '../factors/second-step.js';
import { SECOND_STEP_COOKIE, setSignInCookie } from '../factors/shared-routes.js';
import type { Login } from './login.js';
import { DEVICE_COOKIE, deviceCookieOptions } from './login-throttle.js';

/**
 * The login (docs/product.md, "Calls" under /api/identity): who asks, the e-mail and password
 * steps (a second step follows for accounts with a second factor: factors/sign-in-routes.ts),
 * consent, the errors of a failed authorization, and the logout. HTTP only: the request is read
 * into values for login.ts, and its results become the answer (cookies, sessions).
 */
export const loginRoutes: FastifyPluginAsyncZod<{ login: Login; secondStep: SecondStep }> = async (app, { login, secondStep }) => {
  const { services } = app;
  const route = routes(app, ['identity']);

  route('GET /api/identity/context', {
    summary: 'Who asks for the login',
    querystring: z.object({ returnUrl: z.string().max(2000).optional() }),
    response: { 200: contextResponseSchema },
    problems: [400],
    handler: async (request) => login.context(request.query.returnUrl),
  });

  route('POST /api/identity/email-login', {
    summary: 'Login step 1: password or external login',
    body: emailLoginRequestSchema,
    response: { 200: loginConsentResponseSchema },
    problems: [400, 409],
    handler: async (request) => login.emailLogin(request.body),
  });

  route('POST /api/identity/login', {
    summary: 'Login step 2: password',
    body: loginRequestSchema,
    response: { 200: loginConsentResponseSchema },
    problems: [400, 409],
    handler: async (request, reply) => {
      const { body } = request;
      const remember = body.remember === true;
      const { deviceCookie, signedIn } = await login.checkPassword(
        { ...body, ip: request.ip, deviceCookie: request.cookies[DEVICE_COOKIE] },
        // one write: the second step's or the session's, each with the login's own writes (alongside)
        async ({ userId, returnUrl, secondFactor, alongside }): Promise<LoginConsentResponse> => {
          const returnTo = returnUrl ?? safeReturnPath(body.return_path);
          const pending = await secondStep.afterPassword(userId, { remember, returnTo, alongside }, secondFactor);
          if (pending) {
            setSignInCookie(reply, SECOND_STEP_COOKIE, pending.secondStepCookie, SECOND_STEP_TTL_SECONDS);
            return pending.response;
          }
          await services.sessions.start(request, reply, userId, remember, undefined, alongside);
          services.metrics.login(true);
          return { error: null, valid_return_url: returnTo, external_login: null };
        },
      );
      void reply.setCookie(DEVICE_COOKIE, deviceCookie, deviceCookieOptions(services.config));
      return signedIn;
    },
  });

  route('POST /api/identity/consent', {
    summary: 'Grant or deny the consent a client asks for',
    body: consentRequestSchema,
    response: { 200: loginConsentResponseSchema },
    problems: [400, 401, 403, 409],
    handler: async (request) => login.consent(await services.sessions.require(request), request.body),
  });

  const errorQuery = z.object({ errorId: z.string({ message: 'required_field' }).min(1, { message: 'required_field' }).max(200) });
  route('GET /api/identity/error', {
    summary: 'The error of a failed authorization',
    querystring: errorQuery,
    response: { 200: errorMessageSchema },
    problems: [400, 404],
    handler: async (request) => login.errorMessage(request.query.errorId),
  });
  route('GET /api/identity/login-error', {
    summary: 'The error of a failed external login',
    querystring: errorQuery,
    response: { 200: errorMessageSchema },
    problems: [400, 404],
    handler: async (request) => login.errorMessage(request.query.errorId),
  });

  route('POST /api/identity/logout', {
    summary: 'Log out of the portal and the provider; logoutId (of an RP-initiated logout) in the query, or in a JSON body',
    querystring: logoutRequestSchema,
    body: logoutRequestSchema.nullish(),
    response: { 200: logoutResponseSchema },
    problems: [400],
    handler: async (request, reply) => {
      await services.sessions.end(request, reply);
      const { response, endedProviderSession } = await login.logout({
        logoutId: request.query.logoutId ?? request.body?.logoutId,
        providerSessionCookie: request.cookies[PROVIDER_SESSION_COOKIE],
      });
      if (endedProviderSession) clearProviderSessionCookies(request, reply);
      return response;
    },
  });
};
