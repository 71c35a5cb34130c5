import { LRUCache } from 'lru-cache';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { bearerTokenOf, hasSessionCookie, isApiPath, routerPath } from './csrf.js';
import { AppError, sendProblem } from './problem.js';
import { serviceAccountMayCall } from './route-kit.js';
import type { ServiceAccountPrincipal } from './session.js';

/**
 * Service accounts' bearer tokens on /api (docs/integrations.md, "Service accounts"). A request
 * whose Authorization header has the Bearer scheme is a service account's, and nothing else:
 * - with the session cookie as well it is refused (401 bearer_token_with_cookie): one request, one
 *   identity;
 * - its token must be a live client-credentials token of the OpenID provider (found through
 *   oidc-provider's ClientCredentials model, never read here) with the scope partner_portal_api,
 *   of a service account that still exists: the account is looked up at every request, so a
 *   deleted account's tokens stop at once on every instance. Else 401 invalid_bearer_token;
 * - it reaches only the administrative calls, the routes answered through request.actor()
 *   (marked `config: { actor: true }`, as actorRoutes does in route-kit.ts), and of them not those
 *   only people call (route-kit.ts PEOPLE_ONLY: connections, domains, the second-factor policy,
 *   SCIM tokens, service accounts): every other /api call is a person's (profile, password,
 *   second factors, sessions, developer, identity) and answers 403 service_account_not_allowed.
 * It needs no X-CSRF (csrf.ts): it carries no cookie a browser would add by itself. The general
 * limit counts it against its service account (rate-limit.ts).
 */

/** A live client-credentials token as the bearer check needs it. */
export interface BearerTokenFacts {
  clientId: string;
  scopes: ReadonlySet<string>;
  /** bound to a DPoP key or a certificate, which /api does not check: refused */
  senderConstrained: boolean;
}

/**
 * What the check reads: the provider's token (wired in app.ts to oidc-provider's ClientCredentials
 * model) and the account behind it (the SQL is in modules/service-accounts/queries.ts, handed in
 * where the app is built, since modules sit above http/).
 */
export interface BearerLookups {
  token(value: string): Promise<BearerTokenFacts | null>;
  /** The account of a client id with its organization as it is now, and when it was last used; null when there is none. */
  account(clientId: string): Promise<{ principal: ServiceAccountPrincipal; lastUsedAt: Date | null } | null>;
  /** Record that the account was used now. */
  touch(accountId: string): Promise<void>;
}

/** last_used_at is written at most this often per account and instance. */
const TOUCH_INTERVAL_MS = 60_000;

/** Whether the request is a service account's: an /api call with an Authorization header of the Bearer scheme. */
export function isBearerRequest(request: FastifyRequest): boolean {
  return bearerTokenOf(request) !== undefined && isApiPath(routerPath(request));
}

export class BearerAuth {
  /** when this instance last recorded each account's use (the most recent 10,000 accounts) */
  private readonly touched = new LRUCache<string, number>({ max: 10_000 });

  constructor(
    private readonly deps: { lookups: BearerLookups; scope: string; log: Logger },
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The service account of the request's bearer token, or null (no or bad token, deleted
   * account, a session cookie beside it). Found once per request; the answer is kept as
   * `request.serviceAccount`.
   */
  current(request: FastifyRequest): Promise<ServiceAccountPrincipal | null> {
    request.serviceAccountLookup ??= this.find(request).then((found) => (request.serviceAccount = found));
    return request.serviceAccountLookup;
  }

  private async find(request: FastifyRequest): Promise<ServiceAccountPrincipal | null> {
    const value = bearerTokenOf(request);
    if (!value || hasSessionCookie(request)) return null;
    const token = await this.deps.lookups.token(value);
    if (!token || token.senderConstrained || !token.scopes.has(this.deps.scope)) return null;
    const found = await this.deps.lookups.account(token.clientId);
    if (!found) return null;
    await this.touch(found.principal.id, found.lastUsedAt);
    return found.principal;
  }

  /** Keep last_used_at to the minute, without a write per request. */
  private async touch(accountId: string, lastUsedAt: Date | null): Promise<void> {
    const now = this.now();
    const last = Math.max(lastUsedAt?.getTime() ?? 0, this.touched.get(accountId) ?? 0);
    if (now - last < TOUCH_INTERVAL_MS) return;
    this.touched.set(accountId, now);
    try {
      await this.deps.lookups.touch(accountId);
    } catch (err) {
      this.deps.log.warn({ err }, 'service account: last use not recorded');
    }
  }
}

/** The 401 of a bearer request that is refused, with the RFC 6750 challenge. */
function invalidToken(key: 'invalid_bearer_token' | 'bearer_token_with_cookie'): AppError {
  const challenge =
    key === 'bearer_token_with_cookie'
      ? 'Bearer error="invalid_request", error_description="send the token without the session cookie"'
      : 'Bearer error="invalid_token", error_description="the access token is not valid"';
  return new AppError(key, { headers: { 'www-authenticate': challenge } });
}

/** The 401 of a service account's request whose account was deleted while the request ran (401 invalid_bearer_token). */
export function invalidBearerToken(): AppError {
  return invalidToken('invalid_bearer_token');
}

/**
 * The bearer guard of /api (the rules: the comment at the top of this file), after the general
 * limit (which has already looked the account up, rate-limit.ts).
 */
export function registerBearerGuard(app: FastifyInstance, bearer: BearerAuth): void {
  app.addHook('onRequest', (request, reply, done) => {
    if (!isBearerRequest(request)) {
      done();
      return;
    }
    if (hasSessionCookie(request)) {
      void sendProblem(request, reply, invalidToken('bearer_token_with_cookie'));
      return;
    }
    bearer.current(request).then((account) => {
      if (!account) void sendProblem(request, reply, invalidToken('invalid_bearer_token'));
      else if (request.routeOptions.url && !serviceAccountMayCall(request.routeOptions))
        void sendProblem(request, reply, new AppError('service_account_not_allowed'));
      else done();
    }, done);
  });
}

declare module 'fastify' {
  interface FastifyRequest {
    /** the service account of the request's bearer token once looked up (null: none or refused; undefined: not looked up) */
    serviceAccount: ServiceAccountPrincipal | null | undefined;
    /** the lookup of serviceAccount, under way or done (BearerAuth.current) */
    serviceAccountLookup: Promise<ServiceAccountPrincipal | null> | undefined;
  }
  interface FastifyContextConfig {
    /** the route is answered through request.actor(): a service account may call it (http/bearer.ts) */
    actor?: boolean;
  }
}
