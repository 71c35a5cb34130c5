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
}

// One round trip: find the live session, slide its expiry (at most once a minute), load the user.
// A deactivated user (members/activation.ts) has no live session.
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
FROM live JOIN users u ON u.id = live.user_id AND u.deactivated_at IS NULL
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

export const sessionRows: SessionRows = {
  /**
   * One statement, which also: with `signIn`, sets the user's last_sign_in_at; with `replaces`,
   * ends that session; and runs the `alongside` writes (db/sql.ts withAlongside).
   */
  async insert(q: Queryable, session: NewSession): Promise<void> {
    const insert: SqlStatement = {
      text: `WITH s AS (
         INSERT INTO sessions (id_hash, user_id, persistent, expires_at, user_agent, ip_address)
         VALUES ($1, $2, $3, now() + make_interval(secs => $4), $5, $6) RETURNING user_id
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
