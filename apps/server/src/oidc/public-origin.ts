import type Provider from 'oidc-provider';

/**
 * Every address the provider builds — discovery's endpoints, jwks_uri, registration_client_uri,
 * the resume URL after an interaction, its redirects — comes from the request's protocol and host
 * (Koa's ctx.href). Here they are pinned to PUBLIC_URL for every context the provider makes (its
 * own requests and interactionDetails/interactionResult alike), whatever the Host,
 * X-Forwarded-Host, X-Forwarded-Proto or Forwarded headers say: a cache that does not key on Host
 * can never be handed a document naming another origin. provider.proxy (TRUST_PROXY) then only
 * decides the client address (X-Forwarded-For).
 */
export function pinPublicOrigin(provider: Provider, publicUrl: string): void {
  const { protocol: scheme, host, hostname, origin } = new URL(publicUrl);
  const protocol = scheme.slice(0, -1);
  // the path of an absolute-form request target (`GET http://other.example/x`) as of any other
  const href = (originalUrl: string) => {
    if (originalUrl.startsWith('/')) return `${origin}${originalUrl}`;
    const target = URL.parse(originalUrl);
    return `${origin}${target ? `${target.pathname}${target.search}` : '/'}`;
  };
  Object.defineProperties(provider.request, {
    protocol: { get: () => protocol },
    host: { get: () => host },
    hostname: { get: () => hostname },
    href: {
      get(this: { originalUrl: string }) {
        return href(this.originalUrl);
      },
    },
    URL: {
      get(this: { originalUrl: string }) {
        return new URL(href(this.originalUrl));
      },
    },
  });
}
