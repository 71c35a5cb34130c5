import { isOrganizationManager, isUserManager, toRights } from '@partner-portal/contracts';
import { preparedStatement, preparedVariant, type Queryable } from '../../db/client.js';
import { withAlongside, type SqlStatement } from '../../db/sql.js';
import type { NewSession, SessionOptions, SessionRows, SessionUser } from '../../http/session.js';
import { deleteSessionsOf } from './queries.js';

/**
 * SQL of the session store (http/session.ts SessionStore): starting a session, finding the live
 * one of a cookie, ending it. main.ts hands `sessionRows` to the store.
 */

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
  support_session_id: string | null;
  supporter_user_id: string | null;
  supporter_email: string | null;
  supporter_name: string | null;
  supporter_organization_path: string | null;
  support_ends_at: Date | string | null;
}

// One round trip: find the live session, slide its expiry (at most once a minute), load the user.
// A deactivated user (members/activation.ts) has no live session.
// A support session's session (modules/support) does not slide, and lives only while the
// supporter's own session does; it names its supporter.
// Sliding never takes a session past the "remember me" lifetime from its start (absolute limit).
const SESSION_USER_SQL = preparedStatement(
  'session-user',
  `
WITH s AS (
  UPDATE sessions SET
    last_seen_at = now(),
    expires_at = CASE WHEN persistent OR support_session_id IS NOT NULL THEN expires_at ELSE least(now() + make_interval(secs => $2), created_at + make_interval(secs => $3)) END
  WHERE id_hash = $1 AND expires_at > now() AND last_seen_at < now() - interval '60 seconds'
  RETURNING user_id, expires_at, support_session_id, supporter_session_id_hash
), found AS (
  SELECT user_id, expires_at, support_session_id, supporter_session_id_hash FROM s
  UNION ALL
  SELECT user_id, expires_at, support_session_id, supporter_session_id_hash FROM sessions WHERE id_hash = $1 AND expires_at > now()
  LIMIT 1
), live AS (
  SELECT * FROM found
  WHERE found.supporter_session_id_hash IS NULL
     OR EXISTS (SELECT 1 FROM sessions sup WHERE sup.id_hash = found.supporter_session_id_hash AND sup.expires_at > now())
)
SELECT u.id AS user_id, extract(epoch FROM live.expires_at)::float8 * 1000 AS expires_at_ms, u.email, u.first_name, u.last_name, u.language_code, u.external_idp, u.is_developer, u.must_change_password,
       m.id AS membership_id, o.id AS organization_id, o.name AS organization_name, o.path AS organization_path,
       o.depth AS organization_depth, m.rights,
       ss.id AS support_session_id, ss.supporter_user_id, ss.supporter_email, ss.supporter_name, so.path AS supporter_organization_path,
       ss.ends_at AS support_ends_at
FROM live JOIN users u ON u.id = live.user_id AND u.deactivated_at IS NULL
LEFT JOIN memberships m ON m.user_id = u.id
LEFT JOIN organizations o ON o.id = m.organization_id
LEFT JOIN support_sessions ss ON ss.id = live.support_session_id
LEFT JOIN organizations so ON so.id = ss.supporter_organization_id`,
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
    support: row.support_session_id
      ? {
          id: row.support_session_id,
          supporterUserId: row.supporter_user_id,
          supporterEmail: row.supporter_email ?? '',
          supporterName: row.supporter_name ?? '',
          supporterOrganizationPath: row.supporter_organization_path,
          endsAt: new Date(row.support_ends_at ?? 0).toISOString(),
        }
      : null,
  };
}

export const sessionRows: SessionRows = {
  /**
   * One statement, which also: with `signIn`, sets the user's last_sign_in_at; with `replaces`,
   * ends that session; and runs the `alongside` writes (db/sql.ts withAlongside).
   */
  async insert(q: Queryable, session: NewSession): Promise<void> {
    const insert: SqlStatement = {
      text: `WITH s AS (
         INSERT INTO sessions (id_hash, user_id, persistent, expires_at, user_agent, ip_address, support_session_id, supporter_session_id_hash)
         VALUES ($1, $2, $3, now() + make_interval(secs => $4), $5, $6, $8, $9) RETURNING user_id
       )
       UPDATE users SET last_sign_in_at = now() FROM s WHERE $7::boolean AND users.id = s.user_id`,
      params: [
        session.idHash,
        session.userId,
        session.persistent,
        session.ttlSeconds,
        session.userAgent,
        session.ipAddress,
        session.signIn,
        session.support?.supportSessionId ?? null,
        session.support?.supporterSessionIdHash ?? null,
      ],
    };
    // the ended session is another row than the new one (a new random id): the writes are independent
    const ended: SqlStatement[] = session.replaces ? [{ text: 'DELETE FROM sessions WHERE id_hash = $1', params: [session.replaces] }] : [];
    const { text, params } = withAlongside(insert, [...ended, ...session.alongside]);
    // a login's statement: parsed and planned once per connection and variant
    await q.query(preparedVariant('session-create', text), params);
  },

  async delete(q: Queryable, idHash: string): Promise<void> {
    await q.query('DELETE FROM sessions WHERE id_hash = $1', [idHash]);
  },

  deleteAllOf: deleteSessionsOf,

  async findLive(q: Queryable, idHash: string, options: SessionOptions) {
    const { rows } = await q.query<SessionRow>(SESSION_USER_SQL, [idHash, options.ttlSeconds, options.rememberTtlSeconds]);
    const row = rows[0];
    return row ? { user: toSessionUser(row, idHash), expiresAtMs: Number(row.expires_at_ms) } : null;
  },

  async deleteExpired(q: Queryable): Promise<void> {
    await q.query('DELETE FROM sessions WHERE expires_at < now()');
  },
};
