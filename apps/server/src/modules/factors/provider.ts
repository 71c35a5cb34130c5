import { interactionPolicy } from 'oidc-provider';
import { ACR_MULTI_FACTOR } from '@partner-portal/contracts';
import type { SessionUser } from '../../http/session.js';
import { isAccountId } from '../../oidc/account.js';
import type { Services } from '../../services.js';
import * as q from './queries.js';
import { asksMultiFactor, sessionAuthentication } from './service.js';

/**
 * How second factors reach the OpenID Connect provider: the login result carries the session's
 * amr and acr (they go into the ID token), and a client that asks for multi-factor with
 * `acr_values` gets a step-up when the provider session has less.
 */

/**
 * A login check of the provider: the client asks for multi-factor, or a policy requires it of the
 * account, and the provider session has not proved it.
 */
export function multiFactorCheck(services: Services): InstanceType<typeof interactionPolicy.Check> {
  return new interactionPolicy.Check(
    'multi_factor',
    'Multi-factor authentication is asked for or required',
    'login_required',
    async (ctx) => {
      const session = ctx.oidc.session;
      if (session?.acr === ACR_MULTI_FACTOR) return interactionPolicy.Check.NO_NEED_TO_PROMPT;
      if (asksMultiFactor(ctx.oidc.params as Record<string, unknown>)) return interactionPolicy.Check.REQUEST_PROMPT;
      const accountId = session?.accountId;
      return accountId && isAccountId(accountId) && (await q.userUnderPolicy(services.db, accountId))
        ? interactionPolicy.Check.REQUEST_PROMPT
        : interactionPolicy.Check.NO_NEED_TO_PROMPT;
    },
  );
}

/**
 * amr and acr of the portal session for the provider's login result, or null when the
 * authorization request asks for more than the session proves, or a policy requires a second
 * factor the session has not proved (the user signs in again, with a second factor). Accounts of
 * the external identity provider sign in there: their acr stays single-factor and the client
 * decides (acr_values is a wish, not a demand).
 */
export async function loginAuthentication(
  services: Services,
  user: SessionUser,
  params: Record<string, unknown>,
): Promise<{ amr: string[]; acr: string } | null> {
  const authentication = await sessionAuthentication(services, user);
  if (authentication.acr === ACR_MULTI_FACTOR || user.externalIdentityProvider) return authentication;
  return asksMultiFactor(params) || (await q.userUnderPolicy(services.db, user.id)) ? null : authentication;
}
