import { ACR_MULTI_FACTOR, ACR_SINGLE_FACTOR } from '@partner-portal/contracts';
import type { Queryable } from '../../db/client.js';
import type { SessionUser } from '../../http/session.js';
import { acrOutcome, acrRequest, type Authentication, type LoginPolicy } from '../../oidc/multi-factor.js';
import * as q from './queries.js';
import { AMR } from './second-step.js';

/**
 * The second-factor rules the OpenID Connect provider asks about (oidc/multi-factor.ts): whether a
 * policy covers an account, and what a portal session proves. Given to the provider when the app
 * is built (app.ts), so that oidc/ never imports a module.
 */
export function factorLoginPolicy(db: Queryable): LoginPolicy {
  return {
    requiresMultiFactor: (accountId) => q.userUnderPolicy(db, accountId),

    /**
     * The portal session for the provider's login result (amr, acr, authentication time), unless
     * the authorization request asks for an acr the session has not proved and a step-up gives it,
     * or a policy requires a second factor the session has not proved: then the user signs in
     * again, with a second factor. Accounts of the external identity provider sign in there: they
     * get no step-up, so a demand for multi-factor (an essential acr) is unmet, and a wish
     * (acr_values) leaves their single-factor acr for the client to judge (multi-factor.ts acrOutcome).
     */
    async loginAuthentication(user, params) {
      const authentication = await sessionAuthentication(db, user);
      if (!authentication) return { kind: 'sign_in_again' };
      const native = !user.externalIdentityProvider;
      const outcome = acrOutcome(acrRequest(params), authentication.acr, native);
      if (outcome === 'unmet') return { kind: 'unmet' };
      if (outcome === 'step_up') return { kind: 'sign_in_again' };
      // a policy covers every member, native or not (docs/second-factors.md): a sign-in at an
      // identity provider whose ID token did not say "mfa" completes the portal's second step
      if (authentication.acr !== ACR_MULTI_FACTOR && (await q.userUnderPolicy(db, user.id))) {
        return { kind: 'sign_in_again' };
      }
      return { kind: 'complete', authentication };
    },
  };
}

/**
 * What a portal session proves, for the provider's login result: amr (RFC 8176), acr, and when the
 * user last authenticated in it (`sessions.authenticated_at`: the sign-in, its second step, or a
 * password or code checked again; docs/second-factors.md). A session without recorded methods was
 * started by a password (or an external login) alone. Null when the session has ended meanwhile.
 */
export async function sessionAuthentication(db: Queryable, user: SessionUser): Promise<Authentication | null> {
  const row = await q.findSessionAuthentication(db, user.sessionIdHash);
  if (!row) return null;
  const amr = row.amr.length ? row.amr : [user.externalIdentityProvider ? AMR.federated : AMR.password];
  return { amr, acr: amr.includes(AMR.multiFactor) ? ACR_MULTI_FACTOR : ACR_SINGLE_FACTOR, authenticatedAt: row.authenticated_at_ms };
}
