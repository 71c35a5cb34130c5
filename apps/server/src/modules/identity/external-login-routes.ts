import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../http/problem.js';
import { redirectToError } from '../../oidc/errors.js';
import type { Oidc } from '../../oidc/runtime.js';
import { validReturnUrl } from '../../oidc/return-url.js';
import { EXTERNAL_CALLBACK_PATH } from '../../oidc/upstream.js';
import { accountForUpstreamIdentity } from './upstream-link.js';

const EXTERNAL_COOKIE = 'pp_external';
const tags = ['identity'];
/**
 * The login at the external identity provider: browser navigations, protected by state, nonce and
 * PKCE (docs/security.md). HTTP only: upstream-link.ts finds the portal account of the identity.
 */
export const externalLoginRoutes: FastifyPluginAsyncZod<{ oidc: Oidc }> = async (app, { oidc }) => {
  const { services } = app;

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
      if (user.deactivated_at) return loginError(request, reply, 'This account has been deactivated. Ask your administrator.');
      await services.sessions.start(request, reply, user.id, false);
      const returnUrl = record.returnUrl ? await validReturnUrl(oidc, services.db, record.returnUrl).catch(() => null) : null;
      return reply.header('cache-control', 'no-store').redirect(returnUrl ?? '/', 303);
    },
  );
};
