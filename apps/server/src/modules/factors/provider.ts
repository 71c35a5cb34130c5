import { interactionPolicy } from 'oidc-provider';
import { ACR_MULTI_FACTOR } from '@partner-portal/contracts';
import type { SessionUser } from '../../http/session.js';
import type { Services } from '../../services.js';
import { asksMultiFactor, sessionAuthentication } from './service.js';

/**
 * How second factors reach the OpenID Connect provider: the login result carries the session's
 * amr and acr (they go into the ID token), and a client that asks for multi-factor with
 * `acr_values` gets a step-up when the provider session has less.
 */

/** A login check of the provider: a client asks for multi-factor and the session has not proved it. */
export function multiFactorCheck(_services: Services): InstanceType<typeof interactionPolicy.Check> {
  return new interactionPolicy.Check('multi_factor', 'The client asks for multi-factor authentication', 'login_required', (ctx) => {
    const params = ctx.oidc.params as Record<string, unknown>;
    if (!asksMultiFactor(params)) return interactionPolicy.Check.NO_NEED_TO_PROMPT;
    return ctx.oidc.session?.acr === ACR_MULTI_FACTOR ? interactionPolicy.Check.NO_NEED_TO_PROMPT : interactionPolicy.Check.REQUEST_PROMPT;
  });
}

/**
 * amr and acr of the portal session for the provider's login result, or null when the
 * authorization request asks for more than the session proves (the user signs in again, with a
 * second factor). Accounts of the external identity provider sign in there: their acr stays
 * single-factor and the client decides (acr_values is a wish, not a demand).
 */
export async function loginAuthentication(services: Services, user: SessionUser, params: Record<string, unknown>): Promise<{ amr: string[]; acr: string } | null> {
  const authentication = await sessionAuthentication(services, user);
  if (authentication.acr === ACR_MULTI_FACTOR || user.externalIdentityProvider) return authentication;
  return asksMultiFactor(params) ? null : authentication;
}
