import type Provider from 'oidc-provider';
import type { Configuration, KoaContextWithOIDC } from 'oidc-provider';

/**
 * Cross-origin calls of browser applications to the provider's endpoints (docs/api.md, "OpenID
 * Connect in browsers"; apps/server/test/oidc/browser-clients.test.ts).
 *
 * Which origin may call for which client (oidc-provider's clientBasedCORS, written out here as the
 * portal's rule): the origin of one of the client's redirect_uris, on userinfo for any client, on
 * the token, revocation and introspection endpoints for a public client only (a confidential
 * client's secret does not belong in a browser); never the opaque origin `null` (sandboxed frames,
 * file:// pages). Discovery and the JWKS stay open to every origin, without credentials.
 */
export const clientBasedCORS: NonNullable<Configuration['clientBasedCORS']> = (ctx, origin, client) => {
  if (!origin || origin === 'null') return false;
  if (ctx.oidc.route !== 'userinfo' && client.clientAuthMethod !== 'none') return false;
  return (client.redirectUris ?? []).some((uri) => URL.parse(uri)?.origin === origin);
};

/**
 * Credentialed CORS (`fetch(…, { credentials: 'include' })`, as keycloak-js calls the token
 * endpoint): the provider answers with the caller's exact origin but without
 * Access-Control-Allow-Credentials, so a browser drops the answer. On the given paths, an answer
 * whose Access-Control-Allow-Origin is the request's own Origin, for a client that clientBasedCORS
 * let through (it removes the header from a refused one), also gets
 * Access-Control-Allow-Credentials: true; `*` never does. A preflight names no client: the provider answers it for any origin, and
 * so does this; the answer to the call itself decides.
 *
 * It is safe because nothing on these endpoints is read from a cookie: the token, userinfo and
 * revocation endpoints know a caller by its client authentication, code, refresh token or bearer
 * token only, so the cookies a credentialed call brings (SameSite=Lax ones only within the site)
 * open nothing, and the answer is the one the same call without them gets.
 */
export function allowCredentialedCors(provider: Provider, paths: readonly string[]): void {
  const credentialed = new Set(paths);
  provider.use(async (ctx, next) => {
    await next();
    if (!credentialed.has(ctx.path)) return;
    const origin = ctx.get('origin');
    if (!origin || origin === 'null' || ctx.response.get('access-control-allow-origin') !== origin) return;
    // a call: only once a client was found and its rule let the origin through (an answer given
    // before, an unknown token's, keeps the provider's plain CORS)
    if (ctx.method !== 'OPTIONS' && !(ctx as Partial<KoaContextWithOIDC>).oidc?.client) return;
    ctx.set('access-control-allow-credentials', 'true');
  });
}
