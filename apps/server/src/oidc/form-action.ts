import type Provider from 'oidc-provider';
import type { KoaContextWithOIDC } from 'oidc-provider';

/**
 * The CSP `form-action` of the provider's own pages that send the browser on to a client: the
 * logout confirmation (oidc/logout-pages.ts), whose form posts to the provider, which redirects to
 * the client's post_logout_redirect_uri, and a response_mode=form_post answer, whose form posts to
 * the client's redirect_uri. Browsers check form-action on the form's target and on every redirect
 * after it, so the portal's own policy (`'self' https:` in production, app.ts) would stop both at
 * an http:// address, an application on http://localhost among them. On these two pages only,
 * form-action is `'self'` and the origin of that one registered address: no other form target, not
 * even another https one. docs/api.md, "OpenID Connect in browsers";
 * apps/server/test/oidc/browser-clients.test.ts.
 */

/** An origin a CSP host-source can name as it is: a host name or IPv4 address (no character that ends a source or a directive). */
const NAMEABLE_ORIGIN = /^https?:\/\/[a-z0-9-]+(\.[a-z0-9-]+)*(:\d{1,5})?$/;
/** An IPv6 literal: CSP's host-source grammar has none (Chromium ignores such a source). */
const IPV6_ORIGIN = /^https?:\/\/\[[0-9a-f:.]+\](:\d{1,5})?$/;

/**
 * The CSP source that lets a form, or the redirect after it, reach uri: its origin; the scheme
 * alone for an IPv6 literal ([::1]); null for anything else (the target stays refused).
 */
export function formTarget(uri: string): string | null {
  const url = URL.parse(uri);
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) return null;
  if (NAMEABLE_ORIGIN.test(url.origin)) return url.origin;
  if (IPV6_ORIGIN.test(url.origin)) return url.protocol;
  return null;
}

/** The policy csp with its form-action made `'self'` and the sources of the given target addresses. */
export function withFormAction(csp: string, targets: readonly string[]): string {
  const sources = new Set(["'self'"]);
  for (const target of targets) {
    const source = formTarget(target);
    if (source) sources.add(source);
  }
  const formAction = `form-action ${[...sources].join(' ')}`;
  const directives = csp
    .split(';')
    .map((d) => d.trim())
    .filter(Boolean);
  const at = directives.findIndex((d) => /^form-action(\s|$)/i.test(d));
  if (at === -1) directives.push(formAction);
  else directives[at] = formAction;
  return directives.join(';');
}

/** The provider's routes whose HTML answer is a form_post (authorization, and its resumption after the login). */
const FORM_POST_ROUTES = new Set(['authorization', 'resume']);

/**
 * A form_post answer of the provider (oidc-provider's own page; its inline script is allowed by the
 * hash the provider adds to script-src) gets form-action for its redirect_uri, once the provider
 * has found it registered for the client.
 */
export function allowFormPostTargets(provider: Provider): void {
  provider.use(async (ctx, next) => {
    await next();
    const oidc = (ctx as Partial<KoaContextWithOIDC>).oidc;
    if (!oidc || !FORM_POST_ROUTES.has(oidc.route) || !ctx.response.is('html')) return;
    const redirectUri = oidc.params?.redirect_uri;
    if (typeof redirectUri !== 'string' || !oidc.client?.redirectUriAllowed(redirectUri)) return;
    const csp = ctx.response.get('content-security-policy');
    if (csp) ctx.set('content-security-policy', withFormAction(csp, [redirectUri]));
  });
}
