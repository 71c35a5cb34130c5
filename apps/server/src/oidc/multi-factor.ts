import { errors, interactionPolicy } from 'oidc-provider';
import { ACR_MULTI_FACTOR, ACR_SINGLE_FACTOR, ACR_VALUES } from '@partner-portal/contracts';
import type { SessionUser } from '../http/session.js';
import { isAccountId } from './account.js';

/**
 * How second factors reach the OpenID Connect provider: the login result carries the session's
 * amr and acr (they go into the ID token), and a client that asks for multi-factor gets a step-up
 * when the session has less (docs/second-factors.md, "What the ID token says"). The portal's rules
 * (which accounts a policy covers, what a session proved) come in as a LoginPolicy, given by
 * modules/factors/provider.ts when the app is built.
 */

/** amr (RFC 8176) and acr of a sign-in, and when the user last proved it. */
export interface Authentication {
  amr: string[];
  acr: string;
  /**
   * when the user last authenticated in the portal session (a password, a code or a passkey
   * checked), in milliseconds since the epoch: the ID token's auth_time
   */
  authenticatedAt: number;
}

/** What the interaction page does with a portal session for a login the provider asks for. */
export type LoginDecision =
  /** the session meets the request: the login completes with it */
  | { kind: 'complete'; authentication: Authentication }
  /**
   * the session is not enough (the request or a policy needs a second factor it has not proved):
   * it ends and the user signs in again, with a second factor (the step-up)
   */
  | { kind: 'sign_in_again' }
  /** the account can never meet the request: the client gets unmet_authentication_requirements */
  | { kind: 'unmet' };

export interface LoginPolicy {
  /** Whether a policy requires a second factor of this account. */
  requiresMultiFactor(accountId: string): Promise<boolean>;
  /** What the portal session of `user` means for an authorization request (its params). */
  loginAuthentication(user: SessionUser, params: Record<string, unknown>): Promise<LoginDecision>;
}

/**
 * What an authorization request asks of the acr (OpenID Connect Core 3.1.2.1 and 5.5.1.1):
 * `acr_values` (oidc-provider puts the client's `default_acr_values` there when the request has
 * none) is a list of preferences; an acr claim of the claims parameter marked essential (in
 * `id_token` or `userinfo`, with `value` or `values`) is a demand. `malformed`: an essential acr
 * request whose value(s) are not strings.
 */
export interface AcrRequest {
  preferred: string[] | null;
  essential: string[][];
  malformed: boolean;
}

/** A member of a JSON object (undefined when the value is no object). */
function member(value: unknown, key: string): unknown {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>)[key] : undefined;
}

export function acrRequest(params: Record<string, unknown>): AcrRequest {
  const preferred = typeof params.acr_values === 'string' && params.acr_values ? params.acr_values.split(' ').filter(Boolean) : null;
  const request: AcrRequest = { preferred, essential: [], malformed: false };
  if (typeof params.claims !== 'string') return request;
  let claims: unknown;
  try {
    claims = JSON.parse(params.claims);
  } catch {
    // the provider refuses a claims parameter that is not JSON before any check
    return request;
  }
  for (const container of ['id_token', 'userinfo']) {
    const acr = member(member(claims, container), 'acr');
    if (member(acr, 'essential') !== true) continue;
    const value = member(acr, 'value');
    const values = member(acr, 'values') ?? (value === undefined ? undefined : [value]);
    // without value(s) an essential acr only asks for the claim, which every ID token carries
    if (values === undefined) continue;
    if (Array.isArray(values) && values.every((v): v is string => typeof v === 'string')) request.essential.push(values);
    else request.malformed = true;
  }
  return request;
}

export type AcrOutcome = 'satisfied' | 'step_up' | 'unmet';

const supported = (value: string) => (ACR_VALUES as readonly string[]).includes(value);

/**
 * Whether a session whose acr is `acr` meets a request. A list is met when it names the session's
 * acr, or names any acr the portal issues and the session is multi-factor (the strongest: it
 * meets a request for one factor too, and the ID token says mfa). A list that is not met but names
 * mfa needs a step-up, which an account that cannot step up (`canStepUp` false: accounts of an
 * external identity provider, whose factors are upstream) does not get. A preference list naming
 * nothing the portal issues is ignored, and one that is not met without a step-up is the client's
 * to judge; a demand that cannot be met is unmet (a failed authentication, OpenID Connect Core
 * 5.5.1.1).
 */
export function acrOutcome(request: AcrRequest, acr: string | undefined, canStepUp: boolean): AcrOutcome {
  if (request.malformed) return 'unmet';
  const meets = (list: string[]) => (acr !== undefined && list.includes(acr)) || (acr === ACR_MULTI_FACTOR && list.some(supported));
  const stepUp = (list: string[]) => canStepUp && list.includes(ACR_MULTI_FACTOR);
  let outcome: AcrOutcome = 'satisfied';
  for (const list of request.essential) {
    if (meets(list)) continue;
    if (!stepUp(list)) return 'unmet';
    outcome = 'step_up';
  }
  const preferred = request.preferred;
  if (preferred && preferred.some(supported) && !meets(preferred) && stepUp(preferred)) outcome = 'step_up';
  return outcome;
}

/**
 * Whether authorization parameters demand multi-factor of a single-factor session: acr_values or an
 * essential acr that names mfa and not the single-factor acr.
 */
export function asksMultiFactor(params: Record<string, unknown>): boolean {
  return acrOutcome(acrRequest(params), ACR_SINGLE_FACTOR, true) === 'step_up';
}

/**
 * A login check of the provider, in place of oidc-provider's `essential_acr`/`essential_acrs`
 * (which compare with the session's acr only and so ask again and again for what the portal's
 * login never gives): the request asks for an acr the provider session has not proved, or a policy
 * requires a second factor of the account. The interaction page (oidc/interaction.ts) then decides with
 * the portal session (LoginPolicy.loginAuthentication): complete, step-up or refuse; once it has
 * completed a login, this check does not ask again. An essential acr the portal never issues is
 * refused at once.
 */
export function multiFactorCheck(policy: LoginPolicy): InstanceType<typeof interactionPolicy.Check> {
  return new interactionPolicy.Check(
    'multi_factor',
    'Multi-factor authentication is asked for or required',
    'login_required',
    async (ctx) => {
      const request = acrRequest(ctx.oidc.params as Record<string, unknown>);
      if (request.malformed) throw new errors.InvalidRequest('claims acr value(s) must be strings');
      if (request.essential.some((list) => !list.some(supported))) {
        throw new errors.UnmetAuthenticationRequirements('none of the essential acr values can be met');
      }
      // the login just made was decided by the portal (index.ts) against this very request
      if (ctx.oidc.result?.login) return interactionPolicy.Check.NO_NEED_TO_PROMPT;
      const session = ctx.oidc.session;
      const accountId = session?.accountId;
      // no provider session: the no_session check asks for the login
      if (!accountId) return interactionPolicy.Check.NO_NEED_TO_PROMPT;
      if (acrOutcome(request, session.acr, true) !== 'satisfied') return interactionPolicy.Check.REQUEST_PROMPT;
      if (session.acr === ACR_MULTI_FACTOR) return interactionPolicy.Check.NO_NEED_TO_PROMPT;
      return isAccountId(accountId) && (await policy.requiresMultiFactor(accountId))
        ? interactionPolicy.Check.REQUEST_PROMPT
        : interactionPolicy.Check.NO_NEED_TO_PROMPT;
    },
  );
}
