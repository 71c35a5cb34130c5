import type { Queryable } from '../../db/client.js';

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
}

const USER_COLUMNS = 'id, email, first_name, last_name, language_code, password_hash, external_idp, external_subject';

export async function findUserByEmail(q: Queryable, email: string): Promise<UserRow | undefined> {
  const { rows } = await q.query<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE lower(email) = lower($1)`, [email]);
  return rows[0];
}

/**
 * The password step's lookup: the account by e-mail address (or none) and, in the same statement,
 * the address's key in the login limits (emailLimitKey).
 */
export async function findUserForLogin(q: Queryable, email: string): Promise<{ user: UserRow | undefined; accountKey: string }> {
  const { rows } = await q.query<UserRow & { account_key: string }>(
    `SELECT lower($1) AS account_key, ${USER_COLUMNS.split(', ')
      .map((c) => `u.${c}`)
      .join(', ')}
     FROM (SELECT 1) AS one LEFT JOIN users u ON lower(u.email) = lower($1)`,
    [email],
  );
  const { account_key: accountKey, ...row } = rows[0]!;
  return { user: row.id ? row : undefined, accountKey };
}

export async function findUserById(q: Queryable, id: string): Promise<UserRow | undefined> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return undefined;
  const { rows } = await q.query<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE id = $1`, [id]);
  return rows[0];
}

export async function findUserByExternalSubject(q: Queryable, idp: string, subject: string): Promise<UserRow | undefined> {
  const { rows } = await q.query<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE external_idp = $1 AND external_subject = $2`, [
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
  q: Queryable,
  userId: string,
  idp: string,
  subject: string,
  adoptNative = false,
): Promise<boolean> {
  const result = await q.query(
    `UPDATE users SET external_idp = $2, external_subject = $3, password_hash = NULL, updated_at = now()
     WHERE id = $1 AND external_subject IS NULL AND (external_idp = $2 OR ($4::boolean AND external_idp IS NULL))`,
    [userId, idp, subject, adoptNative],
  );
  return result.rowCount > 0;
}

export async function setPasswordHash(q: Queryable, userId: string, hash: string): Promise<void> {
  await q.query(
    'UPDATE users SET password_hash = $2, password_changed_at = now(), must_change_password = false, updated_at = now() WHERE id = $1',
    [userId, hash],
  );
}

export async function updateProfile(
  q: Queryable,
  userId: string,
  firstName: string,
  lastName: string,
  languageCode: string,
): Promise<void> {
  await q.query('UPDATE users SET first_name = $2, last_name = $3, language_code = $4, updated_at = now() WHERE id = $1', [
    userId,
    firstName,
    lastName,
    languageCode,
  ]);
}

// ---- single-use reset tokens --------------------------------------------------------------------

export const RESET_PURPOSE = 'password_reset';

/** Store a new reset token (its hash); earlier unused ones of the user stop working. */
export async function createResetToken(q: Queryable, userId: string, tokenHash: string, ttlSeconds: number): Promise<void> {
  await q.query(`UPDATE single_use_tokens SET used_at = now() WHERE user_id = $1 AND purpose = $2 AND used_at IS NULL`, [
    userId,
    RESET_PURPOSE,
  ]);
  await q.query(
    `INSERT INTO single_use_tokens (user_id, purpose, token_hash, expires_at) VALUES ($1, $2, $3, now() + make_interval(secs => $4::double precision))`,
    [userId, RESET_PURPOSE, tokenHash, ttlSeconds],
  );
}

export async function findLiveResetToken(q: Queryable, userId: string, tokenHash: string): Promise<{ id: string } | undefined> {
  const { rows } = await q.query<{ id: string }>(
    `SELECT id FROM single_use_tokens
     WHERE user_id = $1 AND purpose = $2 AND token_hash = $3 AND used_at IS NULL AND expires_at > now()`,
    [userId, RESET_PURPOSE, tokenHash],
  );
  return rows[0];
}

/** Use a token once: true only for the one caller that marked it used. */
export async function consumeResetToken(q: Queryable, tokenId: string): Promise<boolean> {
  const result = await q.query('UPDATE single_use_tokens SET used_at = now() WHERE id = $1 AND used_at IS NULL AND expires_at > now()', [
    tokenId,
  ]);
  return result.rowCount > 0;
}

/** Revoke everything the provider issued to a user: sessions, grants and tokens. */
export async function revokeProviderArtifacts(q: Queryable, userId: string): Promise<void> {
  await q.query(`DELETE FROM oidc_payloads WHERE payload ? 'accountId' AND payload->>'accountId' = $1`, [userId]);
  await q.query('DELETE FROM identity_consents WHERE user_id = $1', [userId]);
}

// ---- the clean-up job ---------------------------------------------------------------------------

export async function sweepExpiredIdentityRows(q: Queryable): Promise<void> {
  await q.query('DELETE FROM oidc_payloads WHERE expires_at < now()');
  await q.query('DELETE FROM sessions WHERE expires_at < now()');
  await q.query(`DELETE FROM single_use_tokens WHERE expires_at < now() - interval '1 day'`);
  await q.query('DELETE FROM rate_limits WHERE reset_at < now()');
  await q.query('DELETE FROM device_cookies WHERE expires_at < now()');
}

/** Whether the device cookie (by its hash) belongs to a browser where the user signed in before. */
/** Until when a browser's device cookie is known for a user (null: not known, or expired). */
export async function knownDeviceUntil(q: Queryable, idHash: string, userId: string): Promise<Date | null> {
  const { rows } = await q.query<{ expires_at: Date | string }>(
    'SELECT expires_at FROM device_cookies WHERE id_hash = $1 AND user_id = $2 AND expires_at > now()',
    [idHash, userId],
  );
  return rows[0] ? new Date(rows[0].expires_at) : null;
}

/** Remember (or renew) a browser's device cookie for a user. */
export async function rememberDevice(q: Queryable, idHash: string, userId: string, ttlSeconds: number): Promise<void> {
  await q.query(
    `INSERT INTO device_cookies (id_hash, user_id, expires_at) VALUES ($1, $2, now() + make_interval(secs => $3))
     ON CONFLICT (id_hash, user_id) DO UPDATE SET expires_at = EXCLUDED.expires_at`,
    [idHash, userId, ttlSeconds],
  );
}

/**
 * The key of an e-mail address in the limits: normalised by PostgreSQL exactly as the account
 * lookup (findUserByEmail) compares addresses, so that no spelling of an address gets a counter
 * of its own (JavaScript's toLowerCase differs from lower() for some letters, e.g. 'İ').
 */
export async function emailLimitKey(q: Queryable, email: string): Promise<string> {
  const { rows } = await q.query<{ key: string }>('SELECT lower($1) AS key', [email]);
  return rows[0]!.key;
}
