import { preparedStatement, type Queryable } from '../../db/client.js';
import type { SqlStatement } from '../../db/sql.js';
import { counterAddSql } from '../counters/queries.js';
import { secondFactorStateColumns, type SecondFactorState } from '../factors/queries.js';

/** SQL of the identity module only. */

export interface UserRow {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  language_code: string;
  password_hash: string | null;
  external_idp: string | null;
  external_subject: string | null;
  /** set while the account is deactivated (members/activation.ts): it cannot sign in */
  deactivated_at: Date | string | null;
}

const USER_COLUMNS = 'id, email, first_name, last_name, language_code, password_hash, external_idp, external_subject, deactivated_at';

export async function findUserByEmail(db: Queryable, email: string): Promise<UserRow | undefined> {
  const { rows } = await db.query<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE lower(email) = lower($1)`, [email]);
  return rows[0];
}

/** What the password step reads before the hash (passwordStep). */
export interface PasswordStepRow {
  /** the account of the address, if any */
  user: UserRow | undefined;
  /** until when the browser's device cookie is known for the account (null: no cookie, not known, expired) */
  deviceUntil: Date | null;
  /** the keys of the limits that apply to this browser's guess (the rule: passwordStep) */
  limitKeys: string[];
  /** with the counters in PostgreSQL: the guess taken from each limit (its count with it, when its window ends), in limitKeys' order */
  guesses: { count: number; resetAt: number }[] | null;
  /** the account's second factors, read for every address (factors/queries.ts secondFactorStateColumns) */
  secondFactor: SecondFactorState;
}

/** The password step's statement, with and without taking the guesses in it (passwordStep). */
function passwordStepSql(takeGuesses: boolean): string {
  const guess = takeGuesses ? `, guess AS (${counterAddSql('(SELECT keys FROM limits)', '1', '$6')})` : '';
  return `
WITH account AS (
  SELECT lower($1) AS account_key, ${USER_COLUMNS.split(', ')
    .map((c) => `u.${c}`)
    .join(', ')}
  FROM (SELECT 1) AS one LEFT JOIN users u ON lower(u.email) = lower($1)
), device AS (
  SELECT d.expires_at FROM account a JOIN device_cookies d ON d.user_id = a.id
  WHERE d.id_hash = $2 AND d.expires_at > now()
), limits AS (
  SELECT CASE WHEN EXISTS (SELECT 1 FROM device) THEN ARRAY[$3::text] ELSE ARRAY[$4::text || a.account_key, $5::text] END AS keys
  FROM account a
)${guess}
SELECT a.*, (SELECT expires_at FROM device) AS device_until, l.keys AS limit_keys,
       ${takeGuesses ? `(SELECT json_agg(json_build_object('key', g.key, 'hits', g.hits, 'reset_at_ms', extract(epoch FROM g.reset_at)::float8 * 1000)) FROM guess g)` : 'NULL::json'} AS guesses,
       ${secondFactorStateColumns('a.id')}
FROM account a, limits l`;
}

const PASSWORD_STEP_SQL = {
  guessing: preparedStatement('password-step', passwordStepSql(true)),
  reading: preparedStatement('password-step-read', passwordStepSql(false)),
};

/**
 * The password step before the hash, in one statement (login.ts checkPassword; the limits are
 * described in login-throttle.ts):
 * - the account by e-mail address (the same lower() comparison as findUserByEmail), or none;
 * - whether the browser's device cookie (by its hash) is known, unexpired, for that account;
 * - which limits apply: a known device's own key only, else the account's key (the prefix and the
 *   address as lower() makes it, as emailLimitKey) and the client address's key;
 * - the account's second-factor state, read for unknown addresses too, so that both take the
 *   same work;
 * - with `guessWindowMs` (the counters are in PostgreSQL, http/rate-limit.ts): one guess taken
 *   from each of those limits, as the counter store's addAll takes it (counterAddSql). The
 *   statement then writes only rate_limits, which is unlogged (migration 0052): its commit does
 *   not wait for the disk. The counters' once-a-minute sweep of expired rows is left to the other
 *   counts and to the clean-up job (sweepExpiredIdentityRows).
 */
export async function passwordStep(
  db: Queryable,
  input: {
    email: string;
    deviceHash: string | null;
    keys: { device: string | null; accountPrefix: string; ip: string };
    guessWindowMs: number | null;
  },
): Promise<PasswordStepRow> {
  const params = [input.email, input.deviceHash, input.keys.device, input.keys.accountPrefix, input.keys.ip];
  const guessing = input.guessWindowMs !== null;
  const { rows } = await db.query<
    UserRow &
      SecondFactorState & {
        account_key: string;
        device_until: Date | string | null;
        limit_keys: string[];
        guesses: { key: string; hits: number; reset_at_ms: number }[] | null;
      }
  >(guessing ? PASSWORD_STEP_SQL.guessing : PASSWORD_STEP_SQL.reading, guessing ? [...params, input.guessWindowMs] : params);
  const { account_key: _accountKey, device_until, limit_keys, guesses, has_factor, required, ...user } = rows[0]!;
  const byKey = new Map(guesses?.map((g) => [g.key, { count: g.hits, resetAt: g.reset_at_ms }]));
  return {
    user: user.id ? user : undefined,
    deviceUntil: device_until ? new Date(device_until) : null,
    limitKeys: limit_keys,
    guesses: guesses ? limit_keys.map((k) => byKey.get(k)!) : null,
    secondFactor: { has_factor, required },
  };
}

export async function findUserById(db: Queryable, id: string): Promise<UserRow | undefined> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return undefined;
  const { rows } = await db.query<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE id = $1`, [id]);
  return rows[0];
}

export async function findUserByExternalSubject(db: Queryable, idp: string, subject: string): Promise<UserRow | undefined> {
  const { rows } = await db.query<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE external_idp = $1 AND external_subject = $2`, [
    idp,
    subject,
  ]);
  return rows[0];
}

/**
 * Link an account to its upstream subject, only while it is still unlinked: an invited external
 * account, or (adoptNative) an account of an e-mail domain that logs in upstream, which then loses
 * its password here.
 */
export async function linkExternalSubject(
  db: Queryable,
  userId: string,
  idp: string,
  subject: string,
  adoptNative = false,
): Promise<boolean> {
  const result = await db.query(
    `UPDATE users SET external_idp = $2, external_subject = $3, password_hash = NULL, updated_at = now()
     WHERE id = $1 AND external_subject IS NULL AND (external_idp = $2 OR ($4::boolean AND external_idp IS NULL))`,
    [userId, idp, subject, adoptNative],
  );
  return result.rowCount > 0;
}

/** Link an account of connection `from` to connection `to` (routing made `to` the nearest above it): false when it changed meanwhile. */
export async function moveExternalSubject(db: Queryable, userId: string, from: string, to: string, subject: string): Promise<boolean> {
  const result = await db.query(
    'UPDATE users SET external_idp = $3, external_subject = $4, password_hash = NULL, updated_at = now() WHERE id = $1 AND external_idp = $2',
    [userId, from, to, subject],
  );
  return result.rowCount > 0;
}

/** An account by address with the organization it is a member of (null without a membership). */
export async function findUserWithOrganization(
  db: Queryable,
  email: string,
): Promise<(UserRow & { organization_path: string | null }) | undefined> {
  const { rows } = await db.query<UserRow & { organization_path: string | null }>(
    `SELECT ${USER_COLUMNS.split(', ')
      .map((c) => `u.${c}`)
      .join(', ')}, m.organization_path
     FROM users u LEFT JOIN memberships m ON m.user_id = u.id WHERE lower(u.email) = lower($1)`,
    [email],
  );
  return rows[0];
}

/**
 * A member who joins at the first sign-in through a connection (just in time): an account linked
 * to the connection's subject, without a password, a member without rights of the connection's
 * organization. Returns the account's and the membership's ids.
 */
export async function insertFederatedMember(
  tx: Queryable,
  m: {
    email: string;
    firstName: string;
    lastName: string;
    languageCode: string;
    connectionId: string;
    subject: string;
    organizationId: string;
    organizationPath: string;
  },
): Promise<{ userId: string; membershipId: string }> {
  const { rows } = await tx.query<{ id: string }>(
    `INSERT INTO users (email, first_name, last_name, language_code, external_idp, external_subject, terms_accepted_at)
     VALUES ($1, $2, $3, $4, $5, $6, now()) RETURNING id`,
    [m.email, m.firstName, m.lastName, m.languageCode, m.connectionId, m.subject],
  );
  const userId = rows[0]!.id;
  const membership = await tx.query<{ id: string }>(
    `INSERT INTO memberships (organization_id, user_id, email, organization_path, rights) VALUES ($1, $2, $3, $4, '{}') RETURNING id`,
    [m.organizationId, userId, m.email, m.organizationPath],
  );
  return { userId, membershipId: membership.rows[0]!.id };
}

/** The address and organization of an invitation (the invitation page's way to its sign-in: external-login.ts), or undefined. */
export async function findInvitationAddress(
  db: Queryable,
  invitationId: string,
): Promise<{ email: string; organization_path: string } | undefined> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(invitationId)) return undefined;
  const { rows } = await db.query<{ email: string; organization_path: string }>(
    'SELECT i.email, o.path AS organization_path FROM invitations i JOIN organizations o ON o.id = i.organization_id WHERE i.id = $1',
    [invitationId],
  );
  return rows[0];
}

export async function setPasswordHash(db: Queryable, userId: string, hash: string, options: { unlink?: boolean } = {}): Promise<void> {
  await db.query(
    `UPDATE users SET password_hash = $2, password_changed_at = now(), must_change_password = false, updated_at = now()${
      options.unlink ? ', external_idp = NULL, external_subject = NULL' : ''
    } WHERE id = $1`,
    [userId, hash],
  );
}

export async function updateProfile(
  db: Queryable,
  userId: string,
  firstName: string,
  lastName: string,
  languageCode: string,
): Promise<void> {
  await db.query('UPDATE users SET first_name = $2, last_name = $3, language_code = $4, updated_at = now() WHERE id = $1', [
    userId,
    firstName,
    lastName,
    languageCode,
  ]);
}

// ---- single-use reset tokens --------------------------------------------------------------------

export const RESET_PURPOSE = 'password_reset';

/** Store a new reset token (its hash); earlier unused ones of the user stop working. */
export async function createResetToken(db: Queryable, userId: string, tokenHash: string, ttlSeconds: number): Promise<void> {
  await db.query(`UPDATE single_use_tokens SET used_at = now() WHERE user_id = $1 AND purpose = $2 AND used_at IS NULL`, [
    userId,
    RESET_PURPOSE,
  ]);
  await db.query(
    `INSERT INTO single_use_tokens (user_id, purpose, token_hash, expires_at) VALUES ($1, $2, $3, now() + make_interval(secs => $4::double precision))`,
    [userId, RESET_PURPOSE, tokenHash, ttlSeconds],
  );
}

export async function findLiveResetToken(db: Queryable, userId: string, tokenHash: string): Promise<{ id: string } | undefined> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT id FROM single_use_tokens
     WHERE user_id = $1 AND purpose = $2 AND token_hash = $3 AND used_at IS NULL AND expires_at > now()`,
    [userId, RESET_PURPOSE, tokenHash],
  );
  return rows[0];
}

/** Use a token once: true only for the one caller that marked it used. */
export async function consumeResetToken(db: Queryable, tokenId: string): Promise<boolean> {
  const result = await db.query('UPDATE single_use_tokens SET used_at = now() WHERE id = $1 AND used_at IS NULL AND expires_at > now()', [
    tokenId,
  ]);
  return result.rowCount > 0;
}

// ---- the clean-up job ---------------------------------------------------------------------------

export async function sweepExpiredIdentityRows(db: Queryable): Promise<void> {
  await db.query('DELETE FROM oidc_payloads WHERE expires_at < now()');
  await db.query('DELETE FROM sessions WHERE expires_at < now()');
  await db.query(`DELETE FROM single_use_tokens WHERE expires_at < now() - interval '1 day'`);
  await db.query('DELETE FROM rate_limits WHERE reset_at < now()');
  await db.query('DELETE FROM device_cookies WHERE expires_at < now()');
}

/**
 * Remember (or renew) a browser's device cookie for a user: a write for the caller to run in a
 * statement of its own choosing (with the session's, login-throttle.ts).
 */
export function rememberDevice(idHash: string, userId: string, ttlSeconds: number): SqlStatement {
  return {
    text: `INSERT INTO device_cookies (id_hash, user_id, expires_at) VALUES ($1, $2, now() + make_interval(secs => $3::double precision))
           ON CONFLICT (id_hash, user_id) DO UPDATE SET expires_at = EXCLUDED.expires_at`,
    params: [idHash, userId, ttlSeconds],
  };
}

/**
 * The key of an e-mail address in the limits: normalised by PostgreSQL exactly as the account
 * lookup (findUserByEmail) compares addresses, so that no spelling of an address gets a counter
 * of its own (JavaScript's toLowerCase differs from lower() for some letters, e.g. 'İ').
 */
export async function emailLimitKey(db: Queryable, email: string): Promise<string> {
  const { rows } = await db.query<{ key: string }>('SELECT lower($1) AS key', [email]);
  return rows[0]!.key;
}

/** Whether the account is deactivated (members/activation.ts): it signs in nowhere. */
export async function isDeactivated(db: Queryable, userId: string): Promise<boolean> {
  const { rows } = await db.query<{ deactivated: boolean }>('SELECT deactivated_at IS NOT NULL AS deactivated FROM users WHERE id = $1', [
    userId,
  ]);
  return rows[0]?.deactivated === true;
}

/**
 * The provider's administrator (bootstrap.ts): a developer who has accepted the terms; an address
 * already registered is made a developer. `mustChangePassword` when the password was generated.
 */
export async function upsertBootstrapAdministrator(
  db: Queryable,
  a: { email: string; passwordHash: string; mustChangePassword: boolean },
): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO users (email, first_name, last_name, language_code, password_hash, is_developer, terms_accepted_at, password_changed_at, must_change_password)
     VALUES ($1, 'Portal', 'Administrator', 'en', $2, true, now(), now(), $3)
     ON CONFLICT (lower(email)) DO UPDATE SET is_developer = true RETURNING id`,
    [a.email, a.passwordHash, a.mustChangePassword],
  );
  return rows[0]!.id;
}
