import { hash, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  displayName,
  isOrganizationManager,
  isUserManager,
  SESSION_INDICATOR_COOKIE,
  toRights,
  type Rights,
  type UserInfo,
} from '@partner-portal/contracts';
import { preparedStatement, preparedVariant, type Database, type Queryable } from '../db/client.js';
import { withAlongside, type SqlStatement } from '../db/sql.js';
import { AppError } from './problem.js';
import type { SessionCache } from './session-cache.js';

/**
 * Portal sessions. The cookie carries 256 random bits; the database keeps only their SHA-256, so a
 * stolen database cannot be replayed as cookies. Sliding expiry for session cookies, a fixed
 * lifetime for "remember me".
 */
export const SESSION_COOKIE = 'pp_session';

export interface SessionUser {
  id: string;
  sessionIdHash: string;
  email: string;
  firstName: string;
  lastName: string;
  languageCode: string;
  externalIdentityProvider: string | null;
  isDeveloper: boolean;
  membershipId: string | null;
  organizationId: string | null;
  organizationName: string | null;
  organizationPath: string | null;
  /** the user's organization is the provider's root organization */
  isProviderOrganization: boolean;
  rights: Rights;
  userManager: boolean;
  organizationManager: boolean;
  /** the password was generated for the user: nothing but changing it (and signing out) is allowed */
  mustChangePassword: boolean;
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

export class SessionStore {
  /** stops listening for the cache's announcements (set when the cache is connected) */
  stopCache: (() => Promise<void>) | undefined;

  constructor(
    private readonly db: Database,
    readonly options: SessionOptions,
    /** sessions of this instance's recent requests (http/session-cache.ts); none: every read asks the database */
    readonly cache: SessionCache<SessionUser> | null = null,
    /** the OpenID provider's accounts (oidc/account.ts), dropped by the same announcements */
    readonly accounts: SessionCache<AccountRow> | null = null,
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
    const ttl = persistent ? this.options.rememberTtlSeconds : this.options.ttlSeconds;
    const session: SqlStatement = {
      text: `WITH s AS (
         INSERT INTO sessions (id_hash, user_id, persistent, expires_at, user_agent, ip_address)
         VALUES ($1, $2, $3, now() + make_interval(secs => $4), $5, $6) RETURNING user_id
       )
       UPDATE users SET last_sign_in_at = now() FROM s WHERE $7::boolean AND users.id = s.user_id`,
      params: [
        hashSecret(secret),
        userId,
        persistent,
        ttl,
        origin.userAgent?.slice(0, 512) ?? null,
        origin.ipAddress ?? null,
        origin.signIn === true,
      ],
    };
    // the ended session is another row than the new one (a new random id): the writes are independent
    const ended: SqlStatement[] = origin.replaces ? [{ text: 'DELETE FROM sessions WHERE id_hash = $1', params: [origin.replaces] }] : [];
    const { text, params } = withAlongside(session, [...ended, ...(origin.alongside ?? [])]);
    // a login's statement: parsed and planned once per connection and variant
    await q.query(preparedVariant('session-create', text), params);
    return secret;
  }

  /** End the request's session and remove its cookie. */
  async end(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const secret = request.cookies[SESSION_COOKIE];
    if (secret) {
      this.cache?.delete(hashSecret(secret));
      await this.db.query('DELETE FROM sessions WHERE id_hash = $1', [hashSecret(secret)]);
    }
    void reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure: this.options.secureCookies });
    request.sessionUser = null;
  }

  /** End every session of a user (password reset, removal), except optionally one. */
  async endAllForUser(userId: string, q: Queryable = this.db, exceptIdHash?: string): Promise<void> {
    this.cache?.invalidate([userId]);
    await q.query('DELETE FROM sessions WHERE user_id = $1 AND id_hash IS DISTINCT FROM $2', [userId, exceptIdHash ?? null]);
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
    const { rows } = await this.db.query<SessionRow>(SESSION_USER_SQL, [idHash, this.options.ttlSeconds, this.options.rememberTtlSeconds]);
    const row = rows[0];
    const user = row ? toSessionUser(row, idHash) : null;
    if (row && user) this.cache?.set(idHash, user.id, user, Number(row.expires_at_ms), ticket);
    return (request.sessionUser = user);
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
    const idHash = hashSecret(secret);
    const cached = this.cache?.get(idHash);
    return cached ? (request.sessionUser = cached) : idHash;
  }

  /**
   * The signed-in user, or a 401. A user who must first change a generated password gets a 403
   * `password_change_required`, except where `allowPendingPasswordChange` (reading who is signed
   * in, changing the password).
   */
  async require(request: FastifyRequest, options: { allowPendingPasswordChange?: boolean } = {}): Promise<SessionUser> {
    const user = await this.current(request);
    if (!user) throw new AppError('unauthorized');
    if (user.mustChangePassword && !options.allowPendingPasswordChange) throw new AppError('password_change_required');
    return user;
  }

  async sweepExpired(): Promise<void> {
    await this.db.query('DELETE FROM sessions WHERE expires_at < now()');
  }
}

/** A row of the OpenID provider's account lookup (oidc/account.ts, ACCOUNT_SQL), cached like a session. */
export interface AccountRow {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  language_code: string;
  organization_id: string | null;
  organization_name: string | null;
  organization_path: string | null;
  rights: unknown;
}

interface SessionRow {
  user_id: string;
  expires_at_ms: number | string;
  email: string;
  first_name: string;
  last_name: string;
  language_code: string;
  external_idp: string | null;
  is_developer: boolean;
  membership_id: string | null;
  organization_id: string | null;
  organization_name: string | null;
  organization_path: string | null;
  organization_depth: number | null;
  rights: unknown;
  must_change_password: boolean;
}

// One round trip: find the live session, slide its expiry (at most once a minute), load the user.
// Sliding never takes a session past the "remember me" lifetime from its start (absolute limit).
const SESSION_USER_SQL = preparedStatement(
  'session-user',
  `
WITH s AS (
  UPDATE sessions SET
    last_seen_at = now(),
    expires_at = CASE WHEN persistent THEN expires_at ELSE least(now() + make_interval(secs => $2), created_at + make_interval(secs => $3)) END
  WHERE id_hash = $1 AND expires_at > now() AND last_seen_at < now() - interval '60 seconds'
  RETURNING user_id, expires_at
), live AS (
  SELECT user_id, expires_at FROM s
  UNION ALL
  SELECT user_id, expires_at FROM sessions WHERE id_hash = $1 AND expires_at > now()
  LIMIT 1
)
SELECT u.id AS user_id, extract(epoch FROM live.expires_at)::float8 * 1000 AS expires_at_ms, u.email, u.first_name, u.last_name, u.language_code, u.external_idp, u.is_developer, u.must_change_password,
       m.id AS membership_id, o.id AS organization_id, o.name AS organization_name, o.path AS organization_path,
       o.depth AS organization_depth, m.rights
FROM live JOIN users u ON u.id = live.user_id
LEFT JOIN memberships m ON m.user_id = u.id
LEFT JOIN organizations o ON o.id = m.organization_id`,
);

function toSessionUser(row: SessionRow, sessionIdHash: string): SessionUser {
  const rights = toRights(row.rights);
  return {
    id: row.user_id,
    sessionIdHash,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    languageCode: row.language_code,
    externalIdentityProvider: row.external_idp,
    isDeveloper: row.is_developer,
    membershipId: row.membership_id,
    organizationId: row.organization_id,
    organizationName: row.organization_name,
    organizationPath: row.organization_path,
    isProviderOrganization: row.organization_depth === 0,
    rights,
    userManager: row.membership_id !== null && isUserManager(rights),
    organizationManager: row.membership_id !== null && isOrganizationManager(rights),
    mustChangePassword: row.must_change_password === true,
  };
}

/** The wire shape of GET /api/identity/user-info (docs/product.md, "People, organizations and invitations"). */
export function toUserInfo(user: SessionUser): UserInfo {
  return {
    id: user.id,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    fullName: displayName(user.firstName, user.lastName, user.email),
    languageCode: user.languageCode,
    organizationId: user.organizationId,
    organizationName: user.organizationName,
    organizationPath: user.organizationPath,
    userManager: user.userManager,
    organizationManager: user.organizationManager,
    externalIdentityProvider: user.externalIdentityProvider,
    isDeveloper: user.isDeveloper,
    manageUsersOrOrganizations: user.userManager || user.organizationManager,
    rights: user.rights,
    ...(user.mustChangePassword ? { mustChangePassword: true } : {}),
  };
}

const userInfoBodies = new WeakMap<SessionUser, string>();

/**
 * toUserInfo as the JSON of the answer, made once per session user: a user served from the
 * session cache is the same object at every read, so the hottest read of the portal neither
 * builds nor checks nor serializes its answer again (docs/performance.md, "Authenticated reads").
 * The shape is the contract's by type (UserInfo), and checked from outside by the contract tests.
 */
export function userInfoBody(user: SessionUser): string {
  let body = userInfoBodies.get(user);
  if (body === undefined) {
    body = JSON.stringify(toUserInfo(user));
    userInfoBodies.set(user, body);
  }
  return body;
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
      if (request.sessionUser === null && hasIndicator) sessions.clearIndicator(reply);
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
