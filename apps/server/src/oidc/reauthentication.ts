import { interactionPolicy, type Interaction, type KoaContextWithOIDC } from 'oidc-provider';

/**
 * prompt=login and max_age (OpenID Connect Core 3.1.2.1): the user authenticates again unless the
 * portal session authenticated recently enough. The provider's check below, in place of
 * oidc-provider's own `max_age` check, asks for the login and writes into the interaction the
 * time the user must have authenticated after (`authenticated_after`, milliseconds since the
 * epoch): the time of the request for prompt=login (max_age=0 is the same), the request's time
 * minus max_age otherwise. The interaction page (oidc/interaction.ts) completes the login only for a
 * portal session that authenticated after it, and sends the user to the login page otherwise; the
 * login made there is the new authentication, and its time is the ID token's auth_time.
 */
export const AUTHENTICATED_AFTER = 'authenticated_after';

/** Whether the request asks for an authentication newer than the provider session's. */
function needsReauthentication(ctx: KoaContextWithOIDC): boolean {
  const { oidc } = ctx;
  // the login just made was checked by the interaction page against this very request
  if (oidc.result?.login) return false;
  if (oidc.promptPending('login')) return true;
  const maxAge = oidc.params?.max_age;
  if (maxAge === undefined) return false;
  // the provider session's login time is the portal session's authentication time (index.ts)
  return !oidc.session?.accountId || oidc.session.past(Number(maxAge));
}

export function reauthenticationCheck(): InstanceType<typeof interactionPolicy.Check> {
  return new interactionPolicy.Check(
    'reauthentication',
    'End-User authentication is requested again (prompt=login or max_age)',
    'login_required',
    needsReauthentication,
    (ctx) => {
      const { oidc } = ctx;
      const maxAge = oidc.promptPending('login') ? 0 : Number(oidc.params?.max_age);
      return { [AUTHENTICATED_AFTER]: Date.now() - maxAge * 1000 };
    },
  );
}

/** The time (milliseconds since the epoch) the user must have authenticated after for an interaction, if any. */
export function authenticatedAfter(interaction: Interaction): number | null {
  const value = (interaction.prompt.details as Record<string, unknown>)[AUTHENTICATED_AFTER];
  return typeof value === 'number' ? value : null;
}
