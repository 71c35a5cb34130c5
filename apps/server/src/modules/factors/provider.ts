import { ACR_MULTI_FACTOR } from '@partner-portal/contracts';
import { asksMultiFactor, type LoginPolicy } from '../../oidc/multi-factor.js';
import type { Services } from '../../services.js';
import * as q from './queries.js';
import { sessionAuthentication } from './service.js';

/**
 * The second-factor rules the OpenID Connect provider asks about (oidc/multi-factor.ts): whether a
 * policy covers an account, and what a portal session proves. Given to the provider when the app
 * is built (app.ts), so that oidc/ never imports a module.
 */
export function factorLoginPolicy(services: Services): LoginPolicy {
  return {
    requiresMultiFactor: (accountId) => q.userUnderPolicy(services.db, accountId),

    /**
     * amr and acr of the portal session for the provider's login result, or null when the
     * authorization request asks for more than the session proves, or a policy requires a second
     * factor the session has not proved (the user signs in again, with a second factor). Accounts of
     * the external identity provider sign in there: their acr stays single-factor and the client
     * decides (acr_values is a wish, not a demand).
     */
    async loginAuthentication(user, params) {
      const authentication = await sessionAuthentication(services, user);
      if (authentication.acr === ACR_MULTI_FACTOR || user.externalIdentityProvider) return authentication;
      return asksMultiFactor(params) || (await q.userUnderPolicy(services.db, user.id)) ? null : authentication;
    },
  };
}
