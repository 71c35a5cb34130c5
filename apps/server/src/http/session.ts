import { hash, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import { SESSION_INDICATOR_COOKIE } from '@partner-portal/contracts';
import type { Database, Queryable } from '../db/client.js';
import type { SqlStatement } from '../db/sql.js';
import { AppError } from './problem.js';
import type { ActingRights, Actor } from './actor.js';
import type { SessionUser } from './session-user.js';
import type { SessionCache } from './session-cache.js';

/**
 * Portal sessions. The cookie carries 256 random bits; the database keeps only their SHA-256, so a
 * stolen database cannot be replayed as cookies. Sliding expiry for session cookies, a fixed
 * lifetime for "remember me".
 */
export const SESSION_COOKIE = 'pp_session';
/** The supporter's own session cookie while their browser is in a support session (SessionStore.startSupport). */
export const SUPPORTER_COOKIE = 'pp_supporter';

export type { SessionUser, SupportOfSession } from './session-user.js';
export type { Actor, ActingRights, ServiceAccountPrincipal } from './actor.js';

/** The organization and rights the actor acts with (every actor holds them: http/actor.ts). */
export function actingAs(actor: Actor): ActingRights {
  return actor;
}

/**
 * The person who asks; any other actor is refused (403 service_account_not_allowed) — where a
 * credential is made or managed that would outlive the account (service accounts, SCIM tokens).
 */
export function personOf(actor: Actor): SessionUser {
  if (actor.kind !== 'person') throw new AppError('service_account_not_allowed');
  return actor.user;
}

/**
 * The person who answers for a change of how people sign in: the signed-in person, or, for a
 * dealer's IT person acting through a setup link, the manager who made the link (their user id).
 * Any other actor is refused (403 service_account_not_allowed).
 */
export function responsiblePersonOf(actor: Actor): string {
  if (actor.kind === 'person') return actor.user.id;
  if (actor.kind === 'setup_link') return actor.setupLink.makerId;
  throw new AppError('service_account_not_allowed');
}

export function hashSecret(secret: string): string {
  return hash('sha256', secret, 'base64url');
}

/** A secret for links and cookies: 256 bits, URL-safe. */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

export interface SessionOptions {
  ttlSeconds: number;
  rememberTtlSeconds: number;
  secureCookies: boolean;
}

/** A session row to insert (SessionStore.create). */
export interface NewSession {
  idHash: string;
  userId: string;
  persistent: boolean;
  ttlSeconds: number;
  userAgent: string | null;
  ipAddress: string | null;
  /** a sign-in: the user's last_sign_in_at is set */
  signIn: boolean;
  /** the id hash of a session that ends with this one's start (rotation) */
  replaces: string | null;
  /** the caller's other writes, in the same statement (db/sql.ts withAlongside) */
  alongside: readonly SqlStatement[];
  /** a support session's portal session (SessionStore.startSupport): its support session and the supporter's session */
  support?: { supportSessionId: string; supporterSessionIdHash: string };
}

/**
 * The rows behind the sessions: the SQL is in modules/sessions/store-queries.ts (sessionRows),
 * handed to the store where the services are made (main.ts), since modules sit above http/.
 */
export interface SessionRows {
  insert(q: Queryable, session: NewSession): Promise<void>;
  delete(q: Queryable, idHash: string): Promise<void>;
  deleteAllOf(q: Queryable, userId: string, exceptIdHash: string | null): Promise<unknown>;
  /**
   * The live session's user and when the session expires (ms); its expiry slides (ttlSeconds, at
   * most rememberTtlSeconds from its start).
   */
  findLive(q: Queryable, idHash: string, options: SessionOptions): Promise<{ user: SessionUser; expiresAtMs: number } | null>;
  deleteExpired(q: Queryable): Promise<void>;
}

/** How many session cookies' id hashes SessionStore keeps (about 200 bytes each). */
const ID_HASHES_KEPT = 10_000;

export class SessionStore {
  /** stops listening for the cache's announcements (set when the cache is connected) */
  stopCache: (() => Promise<void>) | undefined;
  /** session cookies of cached sessions → their id hashes (rememberIdHash) */
  private readonly idHashes = new LRUCache<string, string>({ max: ID_HASHES_KEPT });

  constructor(
    private readonly db: Database,
    readonly options: SessionOptions,
    private readonly rows: SessionRows,
    /** sessions of this instance's recent requests (http/session-cache.ts); none: every read asks the database */
    readonly cache: SessionCache<SessionUser> | null = null,
  ) {}

  /**
   * Start a session for a user at sign-in and set its cookie. Any session the request already had
   * ends (rotation). The user's last sign-in is recorded, and the session keeps the browser and
   * address it was started from (the user's list of sessions shows them). All in one statement
   * (create), with the caller's other writes of the sign-in (`alongside`, db/sql.ts withAlongside:
   * the device row of a password login, identity/login-throttle.ts).
   */
  async start(
    request: FastifyRequest,
    reply: FastifyReply,
    userId: string,
    persistent: boolean,
    q: Queryable = this.db,
    alongside: readonly SqlStatement[] = [],
  ): Promise<string> {
    const previous = request.cookies[SESSION_COOKIE];
    const replaces = previous ? hashSecret(previous) : null;
    if (replaces) this.cache?.delete(replaces);
    const secret = await this.create(userId, persistent, q, {
      userAgent: request.headers['user-agent'] ?? null,
      ipAddress: request.ip,
      signIn: true,
      replaces,
      alongside,
    });
    const ttl = persistent ? this.options.rememberTtlSeconds : this.options.ttlSeconds;
    void reply.setCookie(SESSION_COOKIE, secret, {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: this.options.secureCookies,
      ...(persistent ? { maxAge: ttl } : {}),
    });
    this.setIndicator(reply, persistent ? ttl : undefined);
    request.sessionUser = undefined;
    request.sessionIndicatorSet = true;
    return secret;
  }

  /**
   * Enter a support session in the supporter's browser (modules/support): a session of the member
   * that also names the support session and the supporter's session (whose end ends it), lasting
   * `ttlSeconds` without sliding. Its cookie takes the place of the supporter's, whose session is
   * kept, unchanged, in SUPPORTER_COOKIE until leaveSupport gives it back.
   */
  async startSupport(
    request: FastifyRequest,
    reply: FastifyReply,
    memberUserId: string,
    support: { supportSessionId: string; supporterSessionIdHash: string; ttlSeconds: number },
    q: Queryable = this.db,
  ): Promise<void> {
    const supporterSecret = request.cookies[SESSION_COOKIE];
    if (!supporterSecret) throw new AppError('unauthorized');
    const secret = newSecret();
    await this.rows.insert(q, {
      idHash: hashSecret(secret),
      userId: memberUserId,
      persistent: false,
      ttlSeconds: support.ttlSeconds,
      userAgent: request.headers['user-agent']?.slice(0, 512) ?? null,
      ipAddress: request.ip,
      signIn: false,
      replaces: null,
      alongside: [],
      support: { supportSessionId: support.supportSessionId, supporterSessionIdHash: support.supporterSessionIdHash },
    });
    const cookie = { path: '/', httpOnly: true, sameSite: 'lax', secure: this.options.secureCookies } as const;
    void reply.setCookie(SUPPORTER_COOKIE, supporterSecret, cookie);
    void reply.setCookie(SESSION_COOKIE, secret, cookie);
    this.setIndicator(reply, undefined);
    request.sessionUser = undefined;
    request.sessionIndicatorSet = true;
  }

  /**
   * Leave the support session this browser is in (its session row is ended by the caller): the
   * supporter's own session cookie, kept in SUPPORTER_COOKIE, is the session cookie again.
   */
  leaveSupport(request: FastifyRequest, reply: FastifyReply): void {
    const supporterSecret = request.cookies[SUPPORTER_COOKIE];
    const cookie = { path: '/', httpOnly: true, sameSite: 'lax', secure: this.options.secureCookies } as const;
    void reply.clearCookie(SUPPORTER_COOKIE, cookie);
    if (supporterSecret) {
      void reply.setCookie(SESSION_COOKIE, supporterSecret, cookie);
      this.setIndicator(reply, undefined);
      request.sessionIndicatorSet = true;
    } else void reply.clearCookie(SESSION_COOKIE, cookie);
    request.sessionUser = undefined;
  }

  /** The session indicator (SESSION_INDICATOR_COOKIE): readable by script, no secret, the session cookie's lifetime. */

  setIndicator(reply: FastifyReply, maxAge: number | undefined): void {
    void reply.setCookie(SESSION_INDICATOR_COOKIE, '1', {
      path: '/',
      httpOnly: false,
      sameSite: 'lax',
      secure: this.options.secureCookies,
      ...(maxAge ? { maxAge } : {}),
    });
  }

  clearIndicator(reply: FastifyReply): void {
    void reply.clearCookie(SESSION_INDICATOR_COOKIE, { path: '/', sameSite: 'lax', secure: this.options.secureCookies });
  }

  /**
   * Create a session row for a user; returns the cookie value. One statement, which also: with
   * `signIn`, sets the user's last_sign_in_at; with `replaces`, ends that session (by its id hash;
   * the caller drops it from the cache); and runs the `alongside` writes (db/sql.ts withAlongside).
   */
  async create(
    userId: string,
    persistent: boolean,
    q: Queryable = this.db,
    origin: {
      userAgent?: string | null;
      ipAddress?: string | null;
      signIn?: boolean;
      replaces?: string | null;
      alongside?: readonly SqlStatement[];
    } = {},
  ): Promise<string> {
    const secret = newSecret();
    await this.rows.insert(q, {
      idHash: hashSecret(secret),
      userId,
      persistent,
      ttlSeconds: persistent ? this.options.rememberTtlSeconds : this.options.ttlSeconds,
      userAgent: origin.userAgent?.slice(0, 512) ?? null,
      ipAddress: origin.ipAddress ?? null,
      signIn: origin.signIn === true,
      replaces: origin.replaces ?? null,
      alongside: origin.alongside ?? [],
    });
    return secret;
  }

  /** End the request's session and remove its cookie. */
  async end(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const secret = request.cookies[SESSION_COOKIE];
    if (secret) {
      this.cache?.delete(hashSecret(secret));
      await this.rows.delete(this.db, hashSecret(secret));
    }
    // signing out during a support session signs the supporter out too (their session ends, and the support session with it)
    const supporterSecret = request.cookies[SUPPORTER_COOKIE];
    if (supporterSecret && supporterSecret.length <= 100) {
      await this.rows.delete(this.db, hashSecret(supporterSecret));
      void reply.clearCookie(SUPPORTER_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure: this.options.secureCookies });
    }
    void reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure: this.options.secureCookies });
    request.sessionUser = null;
  }

  /** End every session of a user (password reset, removal), except optionally one. */
  async endAllForUser(userId: string, q: Queryable = this.db, exceptIdHash?: string): Promise<void> {
    this.cache?.invalidate([userId]);
    await this.rows.deleteAllOf(q, userId, exceptIdHash ?? null);
  }

  /**
   * The signed-in user of the request, or null. Loaded once per request: from this instance's
   * session cache when it holds the session, else from the database (which also slides the expiry).
   */
  async current(request: FastifyRequest): Promise<SessionUser | null> {
    const found = this.withoutDatabase(request);
    if (typeof found !== 'string') return found;
    const idHash = found;
    const ticket = this.cache?.ticket() ?? 0;
    const live = await this.rows.findLive(this.db, idHash, this.options);
    if (live) this.cache?.set(idHash, live.user.id, live.user, live.expiresAtMs, ticket);
    return (request.sessionUser = live?.user ?? null);
  }

  /**
   * `current` without waiting, when that needs no database: the request's user when it is already
   * known, null without a session cookie, the cached session. Undefined when only the database
   * can tell (then `current` asks it).
   */
  known(request: FastifyRequest): SessionUser | null | undefined {
    const found = this.withoutDatabase(request);
    return typeof found === 'string' ? undefined : found;
  }

  /** What `known` can tell, else the session's id hash to ask the database for (hashed once). */
  private withoutDatabase(request: FastifyRequest): SessionUser | null | string {
    if (request.sessionUser !== undefined) return request.sessionUser;
    const secret = request.cookies[SESSION_COOKIE];
    if (!secret || secret.length > 100) return (request.sessionUser = null);
    const idHash = this.idHashes.get(secret) ?? hashSecret(secret);
    const cached = this.cache?.get(idHash);
    if (!cached) return idHash;
    this.rememberIdHash(secret, idHash);
    return (request.sessionUser = cached);
  }

  /**
   * Keeps the id hash of a cookie whose session the cache holds: SHA-256 through OpenSSL cost a
   * cached read about 4 µs of CPU, more than finding the session. Only cookies of cached sessions
   * are kept (a guessed cookie never is), at most ID_HASHES_KEPT, the least recently used going first.
   */
  private rememberIdHash(secret: string, idHash: string): void {
    if (!this.idHashes.has(secret)) this.idHashes.set(secret, idHash);
  }

  /**
   * The signed-in user, or a 401. A user who must first change a generated password gets a 403
   * `password_change_required`, except where `allowPendingPasswordChange` (reading who is signed
   * in, changing the password). A service account gets a 403: these are a person's calls.
   */
  async require(request: FastifyRequest, options: { allowPendingPasswordChange?: boolean } = {}): Promise<SessionUser> {
    // a service account's request reaches only the routes of request.actor() (http/bearer.ts): this is a person's call
    if (request.serviceAccount) throw new AppError('service_account_not_allowed');
    const user = await this.current(request);
    if (!user) throw new AppError('unauthorized');
    if (user.mustChangePassword && !options.allowPendingPasswordChange) throw new AppError('password_change_required');
    return user;
  }

  async sweepExpired(): Promise<void> {
    await this.rows.deleteExpired(this.db);
  }
}

/**
 * Keeps the session indicator in step with the session at every answer that looked the session
 * up (every /api and /connect request does, for the general limit): removed when the session is
 * gone (ended, expired, removed elsewhere), set when a live session's browser lacks it. So the web
 * app, which reads only the indicator every second, notices an ended session at the next answer.
 */
export function registerSessionIndicator(app: FastifyInstance, sessions: SessionStore): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    // a request answered before its cookies were parsed (refused under overload) is left alone
    if (!request.sessionIndicatorSet && request.cookies) {
      const hasIndicator = request.cookies[SESSION_INDICATOR_COOKIE] !== undefined;
      // a support session that ended on its own (its time, the supporter's session): the
      // supporter's own session cookie is the browser's again (SessionStore.leaveSupport)
      if (request.sessionUser === null && request.cookies[SUPPORTER_COOKIE] !== undefined) sessions.leaveSupport(request, reply);
      else if (request.sessionUser === null && hasIndicator) sessions.clearIndicator(reply);
      else if (request.sessionUser && !hasIndicator) sessions.setIndicator(reply, undefined);
    }
    done(null, payload);
  });
}

declare module 'fastify' {
  interface FastifyRequest {
    /** this request's session once looked up (null: none; undefined: not looked up yet) */
    sessionUser: SessionUser | null | undefined;
    /** the indicator was set with a new session in this request */
    sessionIndicatorSet: boolean;
  }
}
