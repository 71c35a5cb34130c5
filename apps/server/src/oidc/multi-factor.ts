import { interactionPolicy } from 'oidc-provider';
import { ACR_MULTI_FACTOR } from '@partner-portal/contracts';
import type { SessionUser } from '../http/session.js';
import { isAccountId } from './account.js';

/**
 * How second factors reach the OpenID Connect provider: the login result carries the session's
 * amr and acr (they go into the ID token), and a client that asks for multi-factor with
 * `acr_values` gets a step-up when the provider session has less. The portal's rules (which
 * accounts a policy covers, what a session proved) come in as a LoginPolicy, given by
 * modules/factors/provider.ts when the app is built.
 */

/** amr (RFC 8176) and acr of a sign-in. */
export interface Authentication {
  amr: string[];
  acr: string;
}

export interface LoginPolicy {
  /** Whether a policy requires a second factor of this account. */
  requiresMultiFactor(accountId: string): Promise<boolean>;
  /**
   * amr and acr of the portal session for the provider's login result, or null when the
   * authorization request (params) asks for more than the session proves.
   */
  loginAuthentication(user: SessionUser, params: Record<string, unknown>): Promise<Authentication | null>;
}

/** Whether authorization parameters ask for multi-factor authentication (acr_values). */
export function asksMultiFactor(params: Record<string, unknown>): boolean {
  return typeof params.acr_values === 'string' && params.acr_values.split(' ').includes(ACR_MULTI_FACTOR);
}

/**
 * A login check of the provider: the client asks for multi-factor, or a policy requires it of the
 * account, and the provider session has not proved it.
 */
export function multiFactorCheck(policy: LoginPolicy): InstanceType<typeof interactionPolicy.Check> {
  return new interactionPolicy.Check(
    'multi_factor',
    'Multi-factor authentication is asked for or required',
    'login_required',
    async (ctx) => {
      const session = ctx.oidc.session;
      if (session?.acr === ACR_MULTI_FACTOR) return interactionPolicy.Check.NO_NEED_TO_PROMPT;
      if (asksMultiFactor(ctx.oidc.params as Record<string, unknown>)) return interactionPolicy.Check.REQUEST_PROMPT;
      const accountId = session?.accountId;
      return accountId && isAccountId(accountId) && (await policy.requiresMultiFactor(accountId))
        ? interactionPolicy.Check.REQUEST_PROMPT
        : interactionPolicy.Check.NO_NEED_TO_PROMPT;
    },
  );
}
