import { randomBytes } from 'node:crypto';
import Provider, {
  interactionPolicy,
  type AdapterConstructor,
  type Configuration,
  type Grant,
  type KoaContextWithOIDC,
} from 'oidc-provider';
import type { JWK } from 'jose';
import { ACR_VALUES, SERVICE_ACCOUNT_SCOPE } from '@partner-portal/contracts';
import type { Services } from '../services.js';
import { hashSecret, SESSION_COOKIE } from '../http/session.js';
import { outboundFetch, outboundPolicy } from '../http/outbound.js';
import { findAccount, isAccountId, SCOPE_CLAIMS, SUPPORT_CLAIMS, supporterOf } from './account.js';
import { extraClientMetadata } from './client-metadata.js';
import { allowCredentialedCors, clientBasedCORS } from './cors.js';
import { allowFormPostTargets } from './form-action.js';
import { routeBackchannelThroughOutbox } from './backchannel.js';
import { frontchannelLogoutUris } from './logout.js';
import { multiFactorCheck, type LoginPolicy } from './multi-factor.js';
import { pinPublicOrigin } from './public-origin.js';
import { reauthenticationCheck } from './reauthentication.js';
import { compareHashedServiceAccountSecrets, scopeServiceAccountTokens } from './service-account-clients.js';
import type { ErrorRecord, LogoutRecord, RecordStore } from './records.js';
import { liveSession, rememberedGrantId, supportSessionOfPortalSession } from './queries.js';
import { flush, TokenWrites, withTokenWrites } from './token-writes.js';
import { adaptDeviceEndpoints, deviceFlowFeature, type DeviceDecisionRecord } from './device.js';

/** Paths of the provider under the issuer (the portal origin). */
export const ROUTES = {
  authorization: '/connect/authorize',
  token: '/connect/token',
  userinfo: '/connect/userinfo',
  end_session: '/connect/endsession',
  revocation: '/connect/revocation',
  introspection: '/connect/introspect',
  jwks: '/connect/jwks',
  registration: '/connect/dcr',
  pushed_authorization_request: '/connect/par',
  device_authorization: '/connect/device/auth',
  code_verification: '/connect/device',
} as const;

export const INTERACTION_PATH = '/connect/interaction/';

export interface ProviderRecords {
  errors: RecordStore<ErrorRecord>;
  logouts: RecordStore<LogoutRecord>;
  deviceDecisions: RecordStore<DeviceDecisionRecord>;
}

/**
 * The portal session of the cookie sent with a provider request, if it is live. (Its
 * authentication time, the ID token's auth_time, reaches the provider with the login result of the
 * interaction page: oidc/interaction.ts.)
 */
export async function portalSession(
  services: Services,
  secret: string | undefined,
): Promise<{ userId: string; persistent: boolean } | null> {
  if (!secret || secret.length > 100) return null;
  const row = await liveSession(services.db, hashSecret(secret));
  return row ? { userId: row.user_id, persistent: row.persistent } : null;
}

/** Whether the portal session of the cookie runs in a support session (modules/support). */
async function inSupportSession(services: Services, secret: string | undefined): Promise<boolean> {
  if (!secret || secret.length > 100) return false;
  return (await supportSessionOfPortalSession(services.db, hashSecret(secret))) !== null;
}

/** The grant a user gave a client earlier (consent remembered per client), if it still lives. */
async function rememberedGrant(services: Services, accountId: string, clientId: string): Promise<string | undefined> {
  return isAccountId(accountId) ? rememberedGrantId(services.db, accountId, clientId) : undefined;
}

function str(value: unknown): string | null {
  return typeof value === 'string' && value ? value : null;
}

/**
 * The provider's configuration. See docs/decisions/004-login-and-logout.md for how the portal
 * session and the provider session are one sign-in.
 */
export function createProvider(
  services: Services,
  keys: JWK[],
  Adapter: AdapterConstructor,
  records: ProviderRecords,
  loginPolicy: LoginPolicy,
): Provider {
  const { config } = services;

  // The portal session (pp_session) is the identity session; the provider's session follows it.
  // Unless the request carries a live portal session of the provider session's account, a login
  // is needed (login_required for prompt=none); the interaction page then completes it at once for
  // the portal session's user (see oidc/interaction.ts and docs/decisions/004-login-and-logout.md).
  const policy = interactionPolicy.base();
  policy.get('login')!.checks.add(
    new interactionPolicy.Check('portal_session', 'The portal session ended or belongs to another user', 'login_required', async (ctx) => {
      const portal = await portalSession(services, ctx.cookies.get(SESSION_COOKIE, { signed: false }) ?? undefined);
      return portal && portal.userId === ctx.oidc.session?.accountId
        ? interactionPolicy.Check.NO_NEED_TO_PROMPT
        : interactionPolicy.Check.REQUEST_PROMPT;
    }),
    0,
  );
  const login = policy.get('login')!;
  // prompt=login and max_age against the portal session's authentication time (reauthentication.ts)
  login.checks.remove('max_age');
  login.checks.add(reauthenticationCheck());
  // acr_values and essential acr claims: step-up or refusal, decided once (multi-factor.ts)
  login.checks.remove('essential_acrs');
  login.checks.remove('essential_acr');
  login.checks.add(multiFactorCheck(loginPolicy));
  const guardedFetch = outboundFetch(outboundPolicy(config));
  const portalUserId = async (ctx: KoaContextWithOIDC) =>
    (await portalSession(services, ctx.cookies.get(SESSION_COOKIE, { signed: false }) ?? undefined))?.userId ?? null;

  const configuration: Configuration = {
    adapter: Adapter,
    clients: [],
    findAccount: findAccount(services.db, services.accountCache),
    jwks: { keys: keys },
    cookies: {
      keys: [services.secrets.session],
      long: { httpOnly: true, sameSite: 'lax', signed: true },
      short: { httpOnly: true, sameSite: 'lax', signed: true },
    },
    // acr and amr (how the user signed in, multi-factor.ts) and auth_time (when: the portal
    // session's authentication time, reauthentication.ts) go with openid: in every ID token
    claims: {
      ...Object.fromEntries(Object.entries(SCOPE_CLAIMS).map(([k, v]) => [k, [...v]])),
      // act and supportedBy: only a grant made during a support session has them (account.ts supportClaims)
      openid: [...SCOPE_CLAIMS.openid, 'acr', 'amr', 'auth_time', ...SUPPORT_CLAIMS],
    },
    // partner_portal_api: a service account's scope (service-account-clients.ts); /api accepts it
    // only on a service account's client-credentials token (http/bearer.ts), so another client's
    // token that carries it opens nothing
    scopes: ['openid', 'offline_access', 'email', 'profile', 'organization', 'rights', SERVICE_ACCOUNT_SCOPE],
    conformIdTokenClaims: false,
    acrValues: [...ACR_VALUES],
    responseTypes: ['code'],
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
      id_token_signed_response_alg: 'RS256',
    },
    extraClientMetadata,
    features: {
      devInteractions: { enabled: false },
      introspection: { enabled: true },
      revocation: { enabled: true },
      userinfo: { enabled: true },
      backchannelLogout: { enabled: true },
      claimsParameter: { enabled: true },
      // service accounts (service-account-clients.ts): opaque bearer tokens for /api, checked at every request (http/bearer.ts)
      clientCredentials: { enabled: true },
      rpInitiatedLogout: {
        enabled: true,
        // RP-initiated logout goes through the portal's /logout page (see the decision record)
        async logoutSource(ctx: KoaContextWithOIDC) {
          const session = ctx.oidc.session!;
          const state = (session.state ?? {}) as { secret?: string; clientId?: string; postLogoutRedirectUri?: string };
          const frontchannelUris = await frontchannelLogoutUris(ctx.oidc.provider, session, config.publicUrl);
          const logoutId = await records.logouts.create({
            xsrf: state.secret ?? '',
            accountId: session.accountId ?? '',
            clientId: state.clientId ?? null,
            postLogoutRedirectUri: state.postLogoutRedirectUri ?? null,
            frontchannelUris,
          });
          ctx.type = 'text/plain';
          ctx.status = 303;
          ctx.redirect(`${config.publicUrl}/logout?logoutId=${encodeURIComponent(logoutId)}`);
        },
        async postLogoutSuccessSource(ctx: KoaContextWithOIDC) {
          ctx.status = 303;
          ctx.redirect(`${config.publicUrl}/login`);
        },
      },
      registration: {
        enabled: true,
        // Closed registration (no DCR_INITIAL_ACCESS_TOKEN) answers 401 to every token: an
        // unguessable token nobody has.
        initialAccessToken: config.DCR_INITIAL_ACCESS_TOKEN ?? randomBytes(32).toString('base64url'),
      },
      registrationManagement: { enabled: true, rotateRegistrationAccessToken: true },
      // devices and modern clients (docs/api.md): device sign-in through the web page /device
      // (device.ts), DPoP-bound tokens (RFC 9449) and pushed authorization requests (RFC 9126),
      // each enforced for a client registered with dpop_bound_access_tokens or
      // require_pushed_authorization_requests
      deviceFlow: deviceFlowFeature(config.publicUrl, records.deviceDecisions, portalUserId),
      dPoP: { enabled: true },
      pushedAuthorizationRequests: { enabled: true },
    },
    interactions: {
      policy,
      url: (_ctx, interaction) => `${INTERACTION_PATH}${interaction.uid}`,
    },
    pkce: { required: (_ctx, client) => client.clientAuthMethod === 'none' },
    // browser applications' cross-origin calls, with credentials too (cors.ts)
    clientBasedCORS,
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    // access tokens of a grant made during a support session name the supporter as the actor (RFC 8693 §4.1)
    async extraTokenClaims(_ctx, token) {
      const grantId = 'grantId' in token ? token.grantId : undefined;
      const supporter = grantId ? await supporterOf(services.db, grantId) : undefined;
      return supporter?.supporter_user_id ? { act: { sub: supporter.supporter_user_id } } : undefined;
    },
    rotateRefreshToken: true,
    async loadExistingGrant(ctx): Promise<Grant | undefined> {
      const clientId = ctx.oidc.client!.clientId;
      const accountId = ctx.oidc.session!.accountId;
      const candidates = [
        ctx.oidc.result?.consent?.grantId,
        ctx.oidc.session!.grantIdFor(clientId),
        // a support session never uses the member's own remembered consent: its grants are its own (interaction.ts)
        accountId && !(await inSupportSession(services, ctx.cookies.get(SESSION_COOKIE, { signed: false }) ?? undefined))
          ? await rememberedGrant(services, accountId, clientId)
          : undefined,
      ];
      for (const grantId of candidates) {
        if (!grantId) continue;
        const grant = await ctx.oidc.provider.Grant.find(grantId);
        if (grant && grant.accountId === accountId && grant.clientId === clientId) return grant;
      }
      return undefined;
    },
    async renderError(ctx, out) {
      const params = (ctx.oidc?.params ?? {}) as Record<string, unknown>;
      const errorId = await records.errors.create({
        error: out.error,
        error_description: str(out.error_description),
        request_id: str(ctx.get('x-request-id')),
        client_id: ctx.oidc?.client?.clientId ?? str(params.client_id),
        redirect_uri: str(params.redirect_uri),
        response_mode: str(params.response_mode),
        ui_locales: str(params.ui_locales),
        display_mode: str(params.display),
      });
      ctx.type = 'text/plain';
      ctx.status = 303;
      ctx.redirect(`${config.publicUrl}/error?errorId=${encodeURIComponent(errorId)}`);
    },
    routes: ROUTES,
    // Outgoing calls (back-channel logout, sector and request URIs) go through the portal's one
    // guard (http/outbound.ts): private and loopback addresses are refused in production unless
    // OUTBOUND_ALLOW_PRIVATE_NETWORKS=true. The provider's own SSRF dispatcher is replaced by it.
    fetch: (url, options) => guardedFetch(url instanceof Request ? url.url : url, Object.assign({}, options, { dispatcher: undefined })),
    ttl: {
      AccessToken: config.ACCESS_TOKEN_TTL_SECONDS,
      ClientCredentials: config.ACCESS_TOKEN_TTL_SECONDS,
      AuthorizationCode: 60,
      DeviceCode: 600,
      IdToken: 3600,
      RefreshToken: config.REFRESH_TOKEN_TTL_SECONDS,
      Interaction: 3600,
      Session: config.REMEMBER_ME_TTL_SECONDS,
      Grant: config.REFRESH_TOKEN_TTL_SECONDS,
    },
  };

  const provider = new Provider(config.publicUrl, configuration);
  // TRUST_PROXY decides the client address only (X-Forwarded-For); every address the provider
  // builds comes from PUBLIC_URL (public-origin.ts)
  provider.proxy = config.TRUST_PROXY;
  pinPublicOrigin(provider, config.publicUrl);
  compareHashedServiceAccountSecrets(provider);
  scopeServiceAccountTokens(provider);
  allowCredentialedCors(provider, [ROUTES.token, ROUTES.userinfo, ROUTES.revocation]);
  // a form_post answer may send the browser to the client's registered redirect_uri (form-action.ts)
  allowFormPostTargets(provider);
  // the device is told the web page /device; user codes posted to the provider are guesses (device.ts)
  adaptDeviceEndpoints(provider, { config, counters: services.counters, publicUrl: config.publicUrl }, ROUTES, portalUserId);
  // a token request's token writes are made together once its answer is ready (token-writes.ts)
  provider.use(async (ctx, next) => {
    if (ctx.method !== 'POST' || ctx.path !== ROUTES.token) {
      await next();
      return;
    }
    const batch = new TokenWrites();
    await withTokenWrites(batch, next);
    // an answer other than tokens (an error) writes nothing
    if (batch.empty || ctx.status !== 200) return;
    try {
      if (await flush(services.db, batch)) return;
      // the refresh token was used by another request in the meantime
      ctx.status = 400;
      ctx.body = { error: 'invalid_grant', error_description: 'grant request is invalid' };
    } catch (err) {
      services.log.error({ err }, 'token request: the tokens could not be stored');
      ctx.status = 500;
      ctx.body = { error: 'server_error', error_description: 'oops! something went wrong' };
    }
  });
  provider.on('server_error', (_ctx, err) => services.log.error({ err }, 'openid connect provider error'));
  provider.on('backchannel.error', (_ctx, err, client) =>
    services.log.warn({ err, clientId: client.clientId }, 'back-channel logout could not be written to the outbox'),
  );
  // the provider's own back-channel logouts (end_session) leave through the outbox (backchannel.ts)
  routeBackchannelThroughOutbox(provider, services.db);
  return provider;
}
