import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import type { Interaction } from 'oidc-provider';
import { z } from 'zod';
import type { Services } from '../services.js';
import { redirectToError } from './errors.js';
import type { LoginPolicy } from './multi-factor.js';
import { INTERACTION_PATH } from './provider.js';
import { recordSupportGrant, rememberConsent, sessionIsPersistent } from './queries.js';
import { authenticatedAfter } from './reauthentication.js';
import type { Oidc } from './runtime.js';

export function loginPageUrl(returnUrl: string): string {
  return `/login?ReturnUrl=${encodeURIComponent(returnUrl)}`;
}

/**
 * Give the consent an interaction asks for and remember it per client: the grant gets the missing
 * scopes and claims; the (user, client) row keeps its id so later logins reuse it.
 */
export async function grantConsent(
  services: Pick<Services, 'db'>,
  provider: Provider,
  interaction: Interaction,
  accountId: string,
  remember: boolean,
): Promise<string> {
  const clientId = String(interaction.params.client_id);
  const details = interaction.prompt.details as {
    missingOIDCScope?: string[];
    missingOIDCClaims?: string[];
    missingResourceScopes?: Record<string, string[]>;
  };
  let grant = interaction.grantId ? await provider.Grant.find(interaction.grantId) : undefined;
  grant ??= new provider.Grant({ accountId, clientId });
  if (details.missingOIDCScope) grant.addOIDCScope(details.missingOIDCScope.join(' '));
  if (details.missingOIDCClaims) grant.addOIDCClaims(details.missingOIDCClaims);
  for (const [indicator, scopes] of Object.entries(details.missingResourceScopes ?? {}))
    grant.addResourceScope(indicator, scopes.join(' '));
  const grantId = await grant.save();
  if (remember) await rememberConsent(services.db, accountId, clientId, grantId, grant.getOIDCScope());
  return grantId;
}

/**
 * A grant of a support session for the client of a login interaction: the scopes and claims the
 * client asks for (consent is given at login, as for every client), noted as the support session's
 * (its tokens carry act: account.ts, provider.ts extraTokenClaims), never remembered as the member's.
 */
async function grantForSupport(
  services: Services,
  provider: Provider,
  interaction: Interaction,
  accountId: string,
  supportSessionId: string,
): Promise<string> {
  const grant = new provider.Grant({ accountId, clientId: String(interaction.params.client_id) });
  if (typeof interaction.params.scope === 'string') grant.addOIDCScope(interaction.params.scope);
  const grantId = await grant.save();
  await recordSupportGrant(services.db, grantId, supportSessionId);
  return grantId;
}

export function registerInteractionPages(app: FastifyInstance, oidc: Oidc, loginPolicy: LoginPolicy): void {
  const services = app.services;
  const fail = (request: FastifyRequest, reply: FastifyReply, error: string, description: string) =>
    redirectToError(oidc.errors, request, reply, 'error', error, description);

  /**
   * The provider sends the browser here when it needs a login or consent. With a live portal
   * session that meets the request the step completes at once (one sign-in), with the session's
   * amr, acr and authentication time; without one, the browser goes to the login page, whose API
   * calls bring it back here. A session that is not enough goes there too: one that authenticated
   * too long ago for prompt=login or max_age (reauthentication.ts) stays while the user signs in
   * again; one that lacks a second factor the request or a policy needs ends first (the step-up,
   * multi-factor.ts). A request no sign-in of the account can meet ends with an error to the client.
   */
  app.get(`${INTERACTION_PATH}:uid`, { schema: { hide: true, params: z.object({ uid: z.string().max(100) }) } }, async (request, reply) => {
    const { uid } = request.params as { uid: string };
    const provider = oidc.provider();
    const interaction = await provider.interactionDetails(request.raw, reply.raw).catch(() => null);
    if (!interaction)
      return fail(request, reply, 'interaction_expired', 'The login request has expired or was started in another browser.');
    if (interaction.uid !== uid) return fail(request, reply, 'interaction_expired', 'The login request does not belong to this browser.');
    void reply.header('cache-control', 'no-store');
    const user = await services.sessions.current(request);
    if (!user) return reply.redirect(loginPageUrl(oidc.interactionUrl(uid)), 303);
    // a generated password is replaced before the user signs in to any application
    if (user.mustChangePassword) return reply.redirect('/change-password', 303);
    let returnTo: string;
    if (interaction.prompt.name === 'login') {
      const [remember, decision] = await Promise.all([
        sessionIsPersistent(services.db, user.sessionIdHash),
        loginPolicy.loginAuthentication(user, interaction.params),
      ]);
      if (decision.kind === 'sign_in_again') {
        // the client asks for more than this session proves: sign in again, with a second factor
        await services.sessions.end(request, reply);
        return reply.redirect(loginPageUrl(oidc.interactionUrl(uid)), 303);
      }
      if (decision.kind === 'unmet') {
        returnTo = await provider.interactionResult(
          request.raw,
          reply.raw,
          { error: 'unmet_authentication_requirements', error_description: 'the requested authentication context cannot be met' },
          { mergeWithLastSubmission: false },
        );
        return reply.redirect(returnTo, 303);
      }
      const { amr, acr, authenticatedAt } = decision.authentication;
      const after = authenticatedAfter(interaction);
      if (after !== null && authenticatedAt <= after) {
        // prompt=login or max_age: the password again (and the second factor of an account that has
        // one) at the login page, which sends the browser back here. The portal session goes on
        // meanwhile; the sign-in there replaces it (reauthentication.ts).
        return reply.redirect(loginPageUrl(oidc.interactionUrl(uid)), 303);
      }
      // in a support session (modules/support) the client gets a grant of its own, never the
      // member's remembered one: its tokens carry act, its user-info supportedBy (account.ts)
      const supportGrant = user.support ? await grantForSupport(services, provider, interaction, user.id, user.support.id) : null;
      returnTo = await provider.interactionResult(
        request.raw,
        reply.raw,
        // ts: the provider session's login time and the ID token's auth_time
        {
          login: { accountId: user.id, remember: remember && !user.support, amr, acr, ts: Math.floor(authenticatedAt / 1000) },
          ...(supportGrant ? { consent: { grantId: supportGrant } } : {}),
        },
        { mergeWithLastSubmission: false },
      );
    } else if (interaction.prompt.name === 'consent') {
      if (interaction.session?.accountId !== user.id) return reply.redirect(loginPageUrl(oidc.interactionUrl(uid)), 303);
      // every client is registered by the operator (catalogue or DCR with the initial access
      // token), so consent is given at login and remembered per client
      const grantId = await grantConsent(services, provider, interaction, user.id, !user.support);
      if (user.support) await recordSupportGrant(services.db, grantId, user.support.id);
      returnTo = await provider.interactionResult(request.raw, reply.raw, { consent: { grantId } }, { mergeWithLastSubmission: true });
    } else {
      return fail(request, reply, 'invalid_request', `Unsupported interaction ${interaction.prompt.name}.`);
    }
    return reply.redirect(returnTo, 303);
  });
}
