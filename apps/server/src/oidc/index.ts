import type { FastifyInstance } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import type { AdapterConstructor, Interaction } from 'oidc-provider';
import { z } from 'zod';
import type { Services } from '../services.js';
import { postgresAdapter } from './adapter.js';
import { redirectToError } from './errors.js';
import { ensureSigningKey, loadSigningKeys, signingKeyFingerprint } from './keys.js';
import type { LoginPolicy } from './multi-factor.js';
import { createProvider, INTERACTION_PATH, ROUTES } from './provider.js';
import { rememberConsent, sessionIsPersistent } from './queries.js';
import { authenticatedAfter } from './reauthentication.js';
import { RecordStore, type ErrorRecord, type ExternalLoginRecord, type LogoutRecord } from './records.js';
import { UpstreamIdp } from './upstream.js';
import { escapeHtml } from '../http/html.js';

export { INTERACTION_PATH } from './provider.js';

/** Paths under /connect that the portal answers itself (everything else there is the provider's). */
const OWN_PATHS = [INTERACTION_PATH, '/connect/logout/'];

export interface Oidc {
  /** the provider instance in use (replaced when the signing keys change) */
  provider(): Provider;
  issuer: string;
  Adapter: AdapterConstructor;
  errors: RecordStore<ErrorRecord>;
  logouts: RecordStore<LogoutRecord>;
  externalLogins: RecordStore<ExternalLoginRecord>;
  upstream: UpstreamIdp | null;
  /** The interaction URL the login page is given as ReturnUrl. */
  interactionUrl(uid: string): string;
  /** The uid of an interaction URL of this issuer (absolute or a path), else null. */
  interactionUid(url: string | null | undefined): string | null;
  /** Reload the signing keys now (after a rotation); rebuilds the provider if they changed (jobs.ts runs it every minute). */
  reloadKeys(): Promise<void>;
}

export function loginPageUrl(returnUrl: string): string {
  return `/login?ReturnUrl=${encodeURIComponent(returnUrl)}`;
}

/**
 * Mount the OpenID Connect provider on the portal origin: /.well-known/* and /connect/* go to
 * oidc-provider through an onRequest hook (hijacked, so Fastify neither parses nor answers them),
 * except the portal's own interaction and logout pages. The second-factor rules come in as
 * loginPolicy (modules/factors/provider.ts); the key reload and the clean-up run as jobs (jobs.ts).
 */
export async function registerOidc(app: FastifyInstance, loginPolicy: LoginPolicy): Promise<Oidc> {
  const services: Services = app.services;
  const { config, db } = services;
  const Adapter = postgresAdapter(db, services.clientCache);
  const errors = new RecordStore<ErrorRecord>(Adapter, 'PortalError', 3600);
  const logouts = new RecordStore<LogoutRecord>(Adapter, 'PortalLogout', 600);
  const externalLogins = new RecordStore<ExternalLoginRecord>(Adapter, 'ExternalLogin', 900);

  const algs = config.OIDC_SIGNING_ALGS;
  await ensureSigningKey(db, services.secrets.keyEncryption, algs);
  let fingerprint = await signingKeyFingerprint(db, algs);
  let provider = createProvider(
    services,
    await loadSigningKeys(db, services.secrets.keyEncryption, algs),
    Adapter,
    { errors, logouts },
    loginPolicy,
  );
  let callback = provider.callback();

  const reloadKeys = async () => {
    const next = await signingKeyFingerprint(db, algs);
    if (next === fingerprint) return;
    provider = createProvider(
      services,
      await loadSigningKeys(db, services.secrets.keyEncryption, algs),
      Adapter,
      { errors, logouts },
      loginPolicy,
    );
    callback = provider.callback();
    fingerprint = next;
    services.log.info('signing keys changed; provider reloaded');
  };

  const origin = new URL(config.publicUrl).origin;
  const oidc: Oidc = {
    provider: () => provider,
    issuer: config.publicUrl,
    Adapter,
    errors,
    logouts,
    externalLogins,
    upstream: config.externalIdp ? new UpstreamIdp(config.externalIdp, config.publicUrl) : null,
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
    reloadKeys,
  };

  app.decorate('oidc', oidc);
  app.addHook('onRequest', (request, reply, done) => {
    const url = request.url;
    if (!(url.startsWith('/connect/') || url.startsWith('/.well-known/')) || OWN_PATHS.some((p) => url.startsWith(p))) {
      done();
      return;
    }
    // the provider answers: Fastify goes no further with this request
    reply.hijack();
    (callback as (req: IncomingMessage, res: ServerResponse) => Promise<void>)(request.raw, reply.raw).then(() => done(), done);
  });

  registerInteractionPages(app, oidc, loginPolicy);

  return oidc;
}

/**
 * Give the consent an interaction asks for and remember it per client: the grant gets the missing
 * scopes and claims; the (user, client) row keeps its id so later logins reuse it.
 */
export async function grantConsent(
  services: Services,
  provider: Provider,
  interaction: Interaction,
  accountId: string,
  remember: boolean,
): Promise<string> {
  const clientId = String(interaction.params.client_id);
  const details = interaction.prompt.details as {
    missingOIDCScope?: string[];
    missingOIDCClaims?: string[];
    missingResourceScopes?: Record<string, string[]>;
  };
  let grant = interaction.grantId ? await provider.Grant.find(interaction.grantId) : undefined;
  grant ??= new provider.Grant({ accountId, clientId });
  if (details.missingOIDCScope) grant.addOIDCScope(details.missingOIDCScope.join(' '));
  if (details.missingOIDCClaims) grant.addOIDCClaims(details.missingOIDCClaims);
  for (const [indicator, scopes] of Object.entries(details.missingResourceScopes ?? {}))
    grant.addResourceScope(indicator, scopes.join(' '));
  const grantId = await grant.save();
  if (remember) await rememberConsent(services.db, accountId, clientId, grantId, grant.getOIDCScope());
  return grantId;
}

function registerInteractionPages(app: FastifyInstance, oidc: Oidc, loginPolicy: LoginPolicy): void {
  const services = app.services;

  /**
   * The provider sends the browser here when it needs a login or consent. With a live portal
   * session that meets the request the step completes at once (one sign-in), with the session's
   * amr, acr and authentication time; without one, the browser goes to the login page, whose API
   * calls bring it back here. A session that is not enough goes there too: one that authenticated
   * too long ago for prompt=login or max_age (reauthentication.ts) stays while the user signs in
   * again; one that lacks a second factor the request or a policy needs ends first (the step-up,
   * multi-factor.ts). A request no sign-in of the account can meet ends with an error to the client.
   */
  app.get(`${INTERACTION_PATH}:uid`, { schema: { hide: true, params: z.object({ uid: z.string().max(100) }) } }, async (request, reply) => {
    const { uid } = request.params as { uid: string };
    const provider = oidc.provider();
    let interaction: Interaction;
    try {
      interaction = await provider.interactionDetails(request.raw, reply.raw);
    } catch {
      return redirectToError(
        oidc.errors,
        request,
        reply,
        'error',
        'interaction_expired',
        'The login request has expired or was started in another browser.',
      );
    }
    if (interaction.uid !== uid) {
      return redirectToError(
        oidc.errors,
        request,
        reply,
        'error',
        'interaction_expired',
        'The login request does not belong to this browser.',
      );
    }
    void reply.header('cache-control', 'no-store');
    const user = await services.sessions.current(request);
    if (!user) return reply.redirect(loginPageUrl(oidc.interactionUrl(uid)), 303);
    // a generated password is replaced before the user signs in to any application
    if (user.mustChangePassword) return reply.redirect('/change-password', 303);
    let returnTo: string;
    if (interaction.prompt.name === 'login') {
      const [remember, decision] = await Promise.all([
        sessionIsPersistent(services.db, user.sessionIdHash),
        loginPolicy.loginAuthentication(user, interaction.params),
      ]);
      if (decision.kind === 'sign_in_again') {
        // the client asks for more than this session proves: sign in again, with a second factor
        await services.sessions.end(request, reply);
        return reply.redirect(loginPageUrl(oidc.interactionUrl(uid)), 303);
      }
      if (decision.kind === 'unmet') {
        returnTo = await provider.interactionResult(
          request.raw,
          reply.raw,
          { error: 'unmet_authentication_requirements', error_description: 'the requested authentication context cannot be met' },
          { mergeWithLastSubmission: false },
        );
        return reply.redirect(returnTo, 303);
      }
      const { amr, acr, authenticatedAt } = decision.authentication;
      const after = authenticatedAfter(interaction);
      if (after !== null && authenticatedAt <= after) {
        // prompt=login or max_age: the password again (and the second factor of an account that has
        // one) at the login page, which sends the browser back here. The portal session goes on
        // meanwhile; the sign-in there replaces it (reauthentication.ts).
        return reply.redirect(loginPageUrl(oidc.interactionUrl(uid)), 303);
      }
      returnTo = await provider.interactionResult(
        request.raw,
        reply.raw,
        // ts: the provider session's login time and the ID token's auth_time
        { login: { accountId: user.id, remember, amr, acr, ts: Math.floor(authenticatedAt / 1000) } },
        { mergeWithLastSubmission: false },
      );
    } else if (interaction.prompt.name === 'consent') {
      if (interaction.session?.accountId !== user.id) return reply.redirect(loginPageUrl(oidc.interactionUrl(uid)), 303);
      // every client is registered by the operator (catalogue or DCR with the initial access
      // token), so consent is given at login and remembered per client
      const grantId = await grantConsent(services, provider, interaction, user.id, true);
      returnTo = await provider.interactionResult(request.raw, reply.raw, { consent: { grantId } }, { mergeWithLastSubmission: true });
    } else {
      return redirectToError(
        oidc.errors,
        request,
        reply,
        'error',
        'invalid_request',
        `Unsupported interaction ${interaction.prompt.name}.`,
      );
    }
    return reply.redirect(returnTo, 303);
  });

  /** Script of the confirm page (script-src 'self': no inline script). */
  app.get('/connect/logout/submit.js', { schema: { hide: true } }, async (_request, reply) =>
    reply
      .type('text/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send("document.addEventListener('DOMContentLoaded', function () { document.forms[0].submit(); });\n"),
  );

  /**
   * The post-logout address given to the web app for an RP-initiated logout: posts the provider's
   * confirmation (its xsrf secret) so the provider ends its session, revokes the grants, notifies
   * back-channel clients and redirects to the client's post_logout_redirect_uri.
   */
  app.get(
    '/connect/logout/confirm',
    { schema: { hide: true, querystring: z.object({ logoutId: z.string().max(200).optional() }) } },
    async (request, reply) => {
      const { logoutId } = request.query as { logoutId?: string };
      const record = await oidc.logouts.find(logoutId);
      // the record lives on (10 minutes) for the front-channel page; the provider's xsrf secret
      // works once, as the provider session ends with it
      if (!record) return reply.redirect('/login', 303);
      const action = `${oidc.issuer}${ROUTES.end_session}/confirm`;
      const html = `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Logging out</title><script src="/connect/logout/submit.js"></script></head>
<body><form method="post" action="${escapeHtml(action)}">
<input type="hidden" name="xsrf" value="${escapeHtml(record.xsrf)}"/><input type="hidden" name="logout" value="yes"/>
<noscript><button type="submit" autofocus>Log out</button></noscript></form></body></html>`;
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(html);
    },
  );

  /** The iframe_url of a logout: one iframe per client with a front-channel logout URI. */
  app.get(
    '/connect/logout/frontchannel',
    { schema: { hide: true, querystring: z.object({ logoutId: z.string().max(200).optional() }) } },
    async (request, reply) => {
      const { logoutId } = request.query as { logoutId?: string };
      const record = await oidc.logouts.find(logoutId);
      const frames = (record?.frontchannelUris ?? [])
        .map((u) => `<iframe src="${escapeHtml(u)}" title="logout" style="display:none"></iframe>`)
        .join('\n');
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('x-frame-options', 'SAMEORIGIN')
        .header(
          'content-security-policy',
          `default-src 'none'; frame-src https: ${services.config.isProduction ? '' : 'http:'}; frame-ancestors 'self'`,
        )
        .send(`<!DOCTYPE html><html><head><meta charset="utf-8"><title>Logout</title></head><body>${frames}</body></html>`);
    },
  );
}

declare module 'fastify' {
  interface FastifyInstance {
    /** the OpenID Connect provider runtime (set by registerOidc) */
    oidc: Oidc;
  }
}
