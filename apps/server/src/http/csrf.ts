import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, sendProblem } from './problem.js';
import { SESSION_COOKIE } from './session.js';

/**
 * Anti-forgery guard (docs/product.md, "Calls"): every request to /api carries `X-CSRF: 1`, else 403 before any
 * other processing. Browser navigations of the external login are protected by state and nonce
 * instead; the OpenAPI document is read-only and meant to be opened in a browser. A service
 * account's request (an Authorization header of the Bearer scheme without the session cookie,
 * http/bearer.ts) needs none: nothing in it is sent by a browser on its own.
 */
// a support session's start (modules/support) is the caller's browser following its url: it starts
// only the unused, unexpired support session that the same portal session made, by its random id
const EXEMPT = [
  /^\/api\/identity\/challenge-external-login$/,
  /^\/api\/identity\/login-external-callback$/,
  /^\/api\/docs(?:\/|$)/,
  /^\/api\/support-sessions\/[^/]+\/start$/,
];

export function isApiPath(path: string): boolean {
  return path === '/api' || path.startsWith('/api/') || path.startsWith('/api?');
}

/**
 * The path of a request as the router understands it: the matched route's path, else the
 * percent-decoded path (the router decodes before matching, so `/%61pi/organizations` is
 * `/api/organizations`). Every check that depends on the path reads this, never the raw URL.
 */
export function routerPath(request: FastifyRequest): string {
  // found once per request (Fastify builds request.routeOptions afresh at each read)
  return (request.routerPathFound ??= findRouterPath(request));
}

function findRouterPath(request: FastifyRequest): string {
  const route = request.routeOptions.url;
  if (route) return route;
  const path = request.url.split('?')[0] ?? '';
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    /** routerPath's answer for this request, once found (decorated in app.ts) */
    routerPathFound: string | undefined;
  }
}

/** RFC 6750 b64token, bounded: longer or other text is no token of this provider. */
const BEARER_TOKEN = /^[A-Za-z0-9\-._~+/]{1,512}=*$/;

/**
 * The request's bearer token: undefined when the request has no Authorization header of the
 * Bearer scheme, null when it has one that holds no well-formed token.
 */
export function bearerTokenOf(request: FastifyRequest): string | null | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^bearer(?:[ \t]+(.*))?$/is.exec(header.trim());
  if (!match) return undefined;
  const token = match[1]?.trim() ?? '';
  return BEARER_TOKEN.test(token) ? token : null;
}

/** Whether the request carries the portal's session cookie (other cookies, a load balancer's, carry no identity). */
export function hasSessionCookie(request: FastifyRequest): boolean {
  return request.cookies?.[SESSION_COOKIE] !== undefined;
}

/** Whether the request's Authorization header has the DPoP scheme (RFC 9449): a token of the provider's DPoP-bound clients. */
function hasDpopAuthorization(request: FastifyRequest): boolean {
  const header = request.headers.authorization;
  return typeof header === 'string' && /^dpop(?:[ \t]|$)/i.test(header.trim());
}

export function registerCsrfGuard(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    const path = routerPath(request);
    // /api takes a service account's bearer token only (bearer.ts): a DPoP-bound token is refused
    // as the invalid token it is here, whoever sends it (docs/api.md, "Devices and modern clients")
    if (isApiPath(path) && hasDpopAuthorization(request)) {
      const challenge = 'Bearer error="invalid_token", error_description="the API takes no DPoP-bound token"';
      void sendProblem(request, reply, new AppError('invalid_bearer_token', { headers: { 'www-authenticate': challenge } }));
      return;
    }
    if (
      !isApiPath(path) ||
      request.headers['x-csrf'] === '1' ||
      (bearerTokenOf(request) !== undefined && !hasSessionCookie(request)) ||
      (EXEMPT.some((re) => re.test(path)) && (request.method === 'GET' || request.method === 'HEAD'))
    ) {
      done();
      return;
    }
    // answered here: the request goes no further (a hook that answers does not call done)
    void sendProblem(request, reply, new AppError('csrf_header_missing'));
  });
}
