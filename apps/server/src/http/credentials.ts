import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  directoryActor,
  personActor,
  serviceAccountActor,
  type Actor,
  type DirectoryPrincipal,
  type ServiceAccountPrincipal,
} from './actor.js';
import { isBearerRequest, type BearerAuth } from './bearer.js';
import { bearerTokenOf, routerPath } from './csrf.js';
import { AppError } from './problem.js';
import type { SessionStore, SessionUser } from './session.js';

/**
 * The one place where a request's credential becomes its actor (http/actor.ts):
 * - on SCIM's endpoints (SCIM_PATH), the bearer token is a directory's SCIM token (looked up
 *   through DirectoryLookups, modules/scim/queries.ts) and nothing else counts;
 * - on /api, a bearer token is a service account's (http/bearer.ts has its rules);
 * - else the session cookie is a person's (http/session.ts).
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

/** What a request's credential is found to be: a person's session, a service account, a directory, or nothing (null). */
export type Credential =
  | { kind: 'person'; user: SessionUser }
  | { kind: 'service_account'; account: ServiceAccountPrincipal }
  | { kind: 'directory'; directory: DirectoryPrincipal };

export class Credentials {
  constructor(private readonly deps: { sessions: SessionStore; bearer: BearerAuth; directories: DirectoryLookups }) {}

  /**
   * The request's credential when it is known without waiting (a session this instance holds, no
   * cookie); undefined when it must be looked up (`find`).
   */
  known(request: FastifyRequest): Credential | null | undefined {
    if (isScimPath(routerPath(request)) || isBearerRequest(request)) return undefined;
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
    return user && { kind: 'person', user };
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
    return personActor(await this.deps.sessions.require(request), request.id);
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
  app.decorateRequest('actor', function actor(this: FastifyRequest): Promise<Actor> {
    return credentials.actor(this);
  });
}

declare module 'fastify' {
  interface FastifyRequest {
    /** the lookup of a SCIM request's directory, under way or done (Credentials) */
    directoryLookup: Promise<DirectoryPrincipal | null> | undefined;
    /**
     * Who asks, for a service call (Credentials.actor): the directory of a SCIM request, the
     * service account of an /api request's bearer token, else the signed-in person, with the
     * request's id for the audit trail.
     */
    actor(): Promise<Actor>;
  }
}
