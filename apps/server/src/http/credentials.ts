import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SETUP_SESSION_COOKIE } from '@partner-portal/contracts';
import {
  directoryActor,
  personActor,
  serviceAccountActor,
  setupLinkActor,
  type Actor,
  type DirectoryPrincipal,
  type ServiceAccountPrincipal,
  type SetupLinkPrincipal,
} from './actor.js';
import { isBearerRequest, type BearerAuth } from './bearer.js';
import { bearerTokenOf, hasSessionCookie, isApiPath, routerPath } from './csrf.js';
import { AppError } from './problem.js';
import { isSetupPageRoute, refusedDuringSupport, setupLinkMayCall } from './route-kit.js';
import type { SessionStore, SessionUser } from './session.js';

/**
 * The one place where a request's credential becomes its actor (http/actor.ts):
 * - on SCIM's endpoints (SCIM_PATH), the bearer token is a directory's SCIM token (looked up
 *   through DirectoryLookups, modules/scim/queries.ts) and nothing else counts;
 * - on /api, a bearer token is a service account's (http/bearer.ts has its rules);
 * - else the session cookie is a person's (http/session.ts);
 * - else, on /api, the setup cookie is a setup link's session (a dealer's IT person,
 *   modules/setup-links/lookups.ts), which reaches only the routes of its capabilities
 *   (route-kit.ts setupLinkMayCall; any other: 403 setup_link_not_allowed).
 * Each credential is looked up once per request; the general limit (rate-limit.ts) counts the
 * request against the credential found here, and `request.actor()` (route-kit.ts) answers the
 * actor made from it.
 */

/** Where a directory's SCIM token is the credential (modules/scim/routes.ts SCIM_PREFIX). */
export const SCIM_PATH = '/scim/';

export function isScimPath(path: string): boolean {
  return path.startsWith(SCIM_PATH);
}

/** What finds a directory by its token: the SQL is in modules/scim/queries.ts, handed in where the app is built. */
export interface DirectoryLookups {
  /** The directory of a SCIM token (its last use noted), or null for no such token. */
  directory(token: string): Promise<DirectoryPrincipal | null>;
}

/** What finds a setup link's session by its cookie: modules/setup-links/lookups.ts, handed in where the app is built. */
export interface SetupLinkLookups {
  /** The principal of a live setup session, or null (no such session, the link revoked or expired). */
  setupLink(sessionSecret: string): Promise<SetupLinkPrincipal | null>;
}

/** Whether the request carries a setup session's cookie, and no portal session (which takes precedence). */
function hasSetupCookie(request: FastifyRequest): boolean {
  return request.cookies?.[SETUP_SESSION_COOKIE] !== undefined && !hasSessionCookie(request);
}

/** What a request's credential is found to be: a person's session, a service account, a directory, a setup link, or nothing (null). */
export type Credential =
  | { kind: 'person'; user: SessionUser }
  | { kind: 'service_account'; account: ServiceAccountPrincipal }
  | { kind: 'directory'; directory: DirectoryPrincipal }
  | { kind: 'setup_link'; link: SetupLinkPrincipal };

export class Credentials {
  constructor(
    private readonly deps: { sessions: SessionStore; bearer: BearerAuth; directories: DirectoryLookups; setupLinks: SetupLinkLookups },
  ) {}

  /**
   * The request's credential when it is known without waiting (a session this instance holds, no
   * cookie); undefined when it must be looked up (`find`).
   */
  known(request: FastifyRequest): Credential | null | undefined {
    if (isScimPath(routerPath(request)) || isBearerRequest(request) || hasSetupCookie(request)) return undefined;
    const user = this.deps.sessions.known(request);
    return user === undefined ? undefined : user && { kind: 'person', user };
  }

  /** The request's credential, looked up once per request. */
  async find(request: FastifyRequest): Promise<Credential | null> {
    if (isScimPath(routerPath(request))) {
      const directory = await this.directory(request);
      return directory && { kind: 'directory', directory };
    }
    if (isBearerRequest(request)) {
      const account = await this.deps.bearer.current(request);
      return account && { kind: 'service_account', account };
    }
    const user = await this.deps.sessions.current(request);
    if (user) return { kind: 'person', user };
    const link = await this.setupLink(request);
    return link && { kind: 'setup_link', link };
  }

  /**
   * The actor of the request: its directory on SCIM's endpoints (401 without one), its service
   * account (the bearer guard refused the request already when it had none), else the signed-in
   * person (401 when nobody is, 403 while a forced password change is pending).
   */
  async actor(request: FastifyRequest): Promise<Actor> {
    if (isScimPath(routerPath(request))) {
      const directory = await this.directory(request);
      if (!directory) throw new AppError('unauthorized');
      return directoryActor(directory, request.id);
    }
    if (request.serviceAccount) return serviceAccountActor(request.serviceAccount, request.id);
    const link = await this.setupLink(request);
    if (link) return setupLinkActor(link, request.id);
    return personActor(await this.deps.sessions.require(request), request.id);
  }

  /** The setup link of the request's setup cookie (on /api, without a portal session), looked up once per request. */
  private setupLink(request: FastifyRequest): Promise<SetupLinkPrincipal | null> {
    request.setupLinkLookup ??= (async () => {
      const secret = request.cookies?.[SETUP_SESSION_COOKIE];
      if (!secret || !hasSetupCookie(request) || !isApiPath(routerPath(request))) return null;
      return this.deps.setupLinks.setupLink(secret);
    })();
    return request.setupLinkLookup;
  }

  private directory(request: FastifyRequest): Promise<DirectoryPrincipal | null> {
    request.directoryLookup ??= (async () => {
      const token = bearerTokenOf(request);
      return token ? this.deps.directories.directory(token) : null;
    })();
    return request.directoryLookup;
  }
}

/** Gives every request its `actor()` (route-kit.ts), made by the credentials (the one resolver above). */
export function registerCredentials(app: FastifyInstance, credentials: Credentials): void {
  app.decorateRequest('serviceAccount', undefined);
  app.decorateRequest('serviceAccountLookup', undefined);
  app.decorateRequest('directoryLookup', undefined);
  app.decorateRequest('setupLinkLookup', undefined);
  // a setup link's session reaches only the routes of its capabilities (route-kit.ts
  // setupLinkMayCall) and the setup page's own calls: any other is refused before it reads its input
  app.addHook('preValidation', async (request) => {
    if (!hasSetupCookie(request) || !isApiPath(routerPath(request)) || isSetupPageRoute(request.routeOptions.url)) return;
    const credential = credentials.known(request) ?? (await credentials.find(request));
    if (credential?.kind === 'setup_link' && !setupLinkMayCall(request.routeOptions, credential.link.capabilities)) {
      throw new AppError('setup_link_not_allowed');
    }
  });
  app.decorateRequest('actor', function actor(this: FastifyRequest): Promise<Actor> {
    return credentials.actor(this);
  });
  // a support session never changes how the member signs in nor makes a credential (route-kit.ts
  // NOT_DURING_SUPPORT): refused before the route reads its input
  app.addHook('preValidation', async (request) => {
    if (!refusedDuringSupport(request.method, request.routeOptions)) return;
    const credential = credentials.known(request) ?? (await credentials.find(request));
    if (credential?.kind === 'person' && credential.user.support) throw new AppError('not_during_support_session');
  });
}

declare module 'fastify' {
  interface FastifyRequest {
    /** the lookup of a SCIM request's directory, under way or done (Credentials) */
    directoryLookup: Promise<DirectoryPrincipal | null> | undefined;
    /** the lookup of the request's setup link, under way or done (Credentials) */
    setupLinkLookup: Promise<SetupLinkPrincipal | null> | undefined;
    /**
     * Who asks, for a service call (Credentials.actor): the directory of a SCIM request, the
     * service account of an /api request's bearer token, else the signed-in person, with the
     * request's id for the audit trail.
     */
    actor(): Promise<Actor>;
  }
}
