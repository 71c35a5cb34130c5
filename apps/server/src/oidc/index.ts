import type { FastifyInstance } from 'fastify';
import { outboundFetch, outboundPolicy } from '../http/outbound.js';
import type { Services } from '../services.js';
import { postgresAdapter } from './adapter.js';
import { registerDeviceRoutes, type DeviceDecisionRecord } from './device.js';
import { registerInteractionPages } from './interaction.js';
import { registerLogoutPages } from './logout-pages.js';
import type { LoginPolicy } from './multi-factor.js';
import { INTERACTION_PATH, ROUTES } from './provider.js';
import { RecordStore, type ErrorRecord, type ExternalLoginRecord, type LogoutRecord } from './records.js';
import { keyedProvider, type Oidc } from './runtime.js';
import { EXTERNAL_IDP_ID, UpstreamIdp } from './upstream.js';

/** Paths under /connect that the portal answers itself (everything else there is the provider's). */
const OWN_PATHS = [INTERACTION_PATH, '/connect/logout/'];

/**
 * Mount the OpenID Connect provider on the portal origin: /.well-known/* and /connect/* go to
 * oidc-provider through an onRequest hook (hijacked, so Fastify neither parses nor answers them),
 * except the portal's own interaction pages (oidc/interaction.ts) and logout pages
 * (oidc/logout-pages.ts). The second-factor rules come in as loginPolicy
 * (modules/factors/provider.ts); the key reload (oidc/runtime.ts) and the clean-up run as jobs
 * (jobs.ts).
 */
export async function registerOidc(app: FastifyInstance, loginPolicy: LoginPolicy): Promise<Oidc> {
  const services: Services = app.services;
  const { config } = services;
  const Adapter = postgresAdapter(services.db, services.clientCache);
  const errors = new RecordStore<ErrorRecord>(Adapter, 'PortalError', 3600);
  const logouts = new RecordStore<LogoutRecord>(Adapter, 'PortalLogout', 600);
  const externalLogins = new RecordStore<ExternalLoginRecord>(Adapter, 'ExternalLogin', 900);
  const deviceDecisions = new RecordStore<DeviceDecisionRecord>(Adapter, 'DeviceDecision', 300);
  const keyed = await keyedProvider(services, Adapter, { errors, logouts, deviceDecisions }, loginPolicy);

  const origin = new URL(config.publicUrl).origin;
  const oidc: Oidc = {
    provider: keyed.provider,
    issuer: config.publicUrl,
    Adapter,
    errors,
    logouts,
    externalLogins,
    upstream: config.externalIdp
      ? new UpstreamIdp({ id: EXTERNAL_IDP_ID, ...config.externalIdp }, config.publicUrl, outboundFetch(outboundPolicy(config)))
      : null,
    interactionUrl: (uid) => `${config.publicUrl}${INTERACTION_PATH}${uid}`,
    interactionUid(url) {
      if (!url) return null;
      let parsed: URL;
      try {
        parsed = new URL(url, config.publicUrl);
      } catch {
        return null;
      }
      if (parsed.origin !== origin || parsed.search || parsed.hash) return null;
      const match = /^\/connect\/interaction\/([\w-]{1,100})$/.exec(parsed.pathname);
      return match?.[1] ?? null;
    },
    reloadKeys: keyed.reloadKeys,
  };

  app.decorate('oidc', oidc);
  app.addHook('onRequest', (request, reply, done) => {
    const url = request.url;
    if (!(url.startsWith('/connect/') || url.startsWith('/.well-known/')) || OWN_PATHS.some((p) => url.startsWith(p))) {
      done();
      return;
    }
    // the provider answers: Fastify goes no further with this request, and does not send the
    // headers set on the reply so far (the security headers and the request id, app.ts)
    for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) reply.raw.setHeader(name, value);
    reply.hijack();
    keyed.handle(request.raw, reply.raw).then(() => done(), done);
  });

  registerInteractionPages(app, oidc, loginPolicy);
  registerLogoutPages(app, oidc);
  registerDeviceRoutes(app, () => oidc.provider(), deviceDecisions, ROUTES.code_verification);

  return oidc;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** the OpenID Connect provider runtime (set by registerOidc) */
    oidc: Oidc;
  }
}
