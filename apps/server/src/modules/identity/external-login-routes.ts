import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { redirect, routes } from '../../http/route-kit.js';
import { redirectToError } from '../../oidc/errors.js';
import type { Oidc } from '../../oidc/runtime.js';
import { EXTERNAL_CALLBACK_PATH } from '../../oidc/upstream.js';
import { SECOND_STEP_TTL_SECONDS, type SecondStep } from '../factors/second-step.js';
import { SECOND_STEP_COOKIE, setSignInCookie } from '../factors/shared-routes.js';
import {
  browserLanguage,
  type CallbackOutcome,
  type ChallengeOutcome,
  type ConnectionTester,
  type ExternalLogin,
} from './external-login.js';

const EXTERNAL_COOKIE = 'pp_external';

/**
 * Who may run a connection's test sign-in in this request: the signed-in person, or a dealer's IT
 * person through a setup link's session (http/credentials.ts resolves either; none: null).
 */
async function testerOf(request: FastifyRequest): Promise<ConnectionTester | null> {
  const actor = await request.actor().catch(() => null);
  if (actor?.kind === 'person') return actor.user;
  if (actor?.kind === 'setup_link') return actor.setupLink;
  return null;
}
/**
 * The login at an upstream identity provider (a single sign-on connection, or the EXTERNAL_IDP_*
 * provider): browser navigations, protected by state, nonce and PKCE (docs/security.md). HTTP
 * only: external-login.ts decides, upstream-link.ts finds the portal account of the identity.
 */
export const externalLoginRoutes: FastifyPluginAsyncZod<{ oidc: Oidc; externalLogin: ExternalLogin; secondStep: SecondStep }> = async (
  app,
  { oidc, externalLogin, secondStep },
) => {
  const { services } = app;
  const route = routes(app, ['identity']);
  const cookieOptions = { path: EXTERNAL_CALLBACK_PATH, httpOnly: true, sameSite: 'lax' as const, secure: services.config.isHttps };

  /** Where a refused or a tested sign-in goes: the login page with its error record, or back to the web app. */
  const refused = (
    request: FastifyRequest,
    reply: FastifyReply,
    outcome: Exclude<ChallengeOutcome | CallbackOutcome, { loginId: string }>,
  ) => {
    if (outcome.kind === 'error')
      return redirectToError(oidc.errors, request, reply, 'login', outcome.key, outcome.description, outcome.params);
    return reply.header('cache-control', 'no-store').redirect(outcome.url, 303);
  };

  route('GET /api/identity/challenge-external-login', {
    summary:
      'Start a login at an upstream identity provider (browser navigation): `connection` (a single sign-on connection’s id, or `external`), else the one the invitation’s or the hint’s address signs in at, else EXTERNAL_IDP_*. With `test=1` (an organizationManager of the connection’s organization, an ancestor or a descendant, signed in): a test sign-in that signs nobody in and returns to `returnPath` with `sso_test=ok&sso_test_email=…` or `sso_test=<error key>`',
    querystring: z.object({
      returnUrl: z.string().max(2000).optional(),
      invitationLogin: z.string().max(100).optional(),
      scheme: z.string().max(100).optional(),
      callback: z.string().max(2000).optional(),
      loginHint: z.string().max(100).optional(),
      connection: z.string().max(100).optional(),
      returnPath: z.string().max(2000).optional(),
      test: z.enum(['0', '1', 'true', 'false']).optional(),
    }),
    response: { 303: redirect },
    problems: [400, 401, 403, 404],
    handler: async (request, reply) => {
      const { query } = request;
      const test = query.test === '1' || query.test === 'true';
      const outcome = await externalLogin.challenge({
        connection: query.connection,
        invitationLogin: query.invitationLogin,
        loginHint: query.loginHint,
        returnUrl: query.returnUrl,
        returnPath: query.returnPath,
        test,
        user: test ? await testerOf(request) : null,
      });
      if (!('loginId' in outcome)) return refused(request, reply, outcome);
      void reply.setCookie(EXTERNAL_COOKIE, outcome.loginId, { ...cookieOptions, maxAge: 900 });
      return reply.header('cache-control', 'no-store').redirect(outcome.url, 303);
    },
  });

  route(`GET ${EXTERNAL_CALLBACK_PATH}`, {
    summary: 'Return from an upstream identity provider (browser navigation)',
    querystring: z
      .object({
        returnUrl: z.string().max(2000).optional(),
        invitationLogin: z.string().max(100).optional(),
        remoteError: z.string().max(500).optional(),
        error: z.string().max(200).optional(),
        error_description: z.string().max(1000).optional(),
      })
      .passthrough(),
    response: { 303: redirect },
    problems: [400],
    handler: async (request, reply) => {
      const loginId = request.cookies[EXTERNAL_COOKIE];
      void reply.clearCookie(EXTERNAL_COOKIE, cookieOptions);
      const { error, error_description: errorDescription, remoteError } = request.query;
      if (error || remoteError) {
        // upstream (or attacker-chosen) text is logged for the operator, never shown: the login page
        // shows the portal's own message for the portal's own error code (docs/security.md)
        request.log.warn(
          { upstream_error: error, upstream_error_description: errorDescription ?? remoteError },
          'external login refused upstream',
        );
      }
      const outcome = await externalLogin.callback({
        loginId,
        callbackUrl: new URL(request.url, services.config.publicUrl),
        upstreamError: Boolean(error || remoteError),
        language: browserLanguage(request.headers['accept-language']),
        requestId: request.id,
        user: await testerOf(request),
      });
      if (outcome.kind === 'second-step') {
        setSignInCookie(reply, SECOND_STEP_COOKIE, outcome.secondStepCookie, SECOND_STEP_TTL_SECONDS);
        return reply.header('cache-control', 'no-store').redirect(outcome.url, 303);
      }
      if (outcome.kind !== 'session') return refused(request, reply, outcome);
      const secret = await services.sessions.start(request, reply, outcome.userId, false);
      await secondStep.recordSessionAuthentication(secret, outcome.amr);
      services.metrics.login(true);
      return reply.header('cache-control', 'no-store').redirect(outcome.url, 303);
    },
  });
};
