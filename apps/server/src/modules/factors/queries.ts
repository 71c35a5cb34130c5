import type { Queryable } from '../../db/client.js';
import { subtreeCondition, withAlongside, type SqlStatement } from '../../db/sql.js';

/** SQL of the second factors (migrations 0042, 0043). */

/** Run a statement that changes rows: whether it changed any (false: nothing matched its conditions). */
export async function changedAny(db: Queryable, text: string, params: readonly unknown[]): Promise<boolean> {
  return (await db.query(text, params)).rowCount > 0;
}

export interface TotpRow {
  user_id: string;
  secret_encrypted: string;
  confirmed_at: Date | string | null;
  last_used_step: string | number | null;
}

export async function findTotp(db: Queryable, userId: string, forUpdate = false): Promise<TotpRow | undefined> {
  const { rows } = await db.query<TotpRow>(
    `SELECT user_id, secret_encrypted, confirmed_at, last_used_step FROM user_totp WHERE user_id = $1${forUpdate ? ' FOR UPDATE' : ''}`,
    [userId],
  );
  return rows[0];
}

/** A new (unconfirmed) secret; replaces an earlier unconfirmed one, never a confirmed one. */
export async function putPendingTotp(db: Queryable, userId: string, secretEncrypted: string): Promise<boolean> {
  return changedAny(
    db,
    `INSERT INTO user_totp (user_id, secret_encrypted) VALUES ($1, $2)
     ON CONFLICT (user_id) DO UPDATE SET secret_encrypted = EXCLUDED.secret_encrypted, created_at = now(), last_used_step = NULL
     WHERE user_totp.confirmed_at IS NULL`,
    [userId, secretEncrypted],
  );
}

export async function confirmTotp(db: Queryable, userId: string, step: number): Promise<void> {
  await db.query('UPDATE user_totp SET confirmed_at = now(), last_used_step = $2 WHERE user_id = $1', [userId, step]);
}

/** Record a used time step; false when it (or a later one) was already used: a replay. */
export async function useTotpStep(db: Queryable, userId: string, step: number): Promise<boolean> {
  return changedAny(
    db,
    'UPDATE user_totp SET last_used_step = $2 WHERE user_id = $1 AND confirmed_at IS NOT NULL AND (last_used_step IS NULL OR last_used_step < $2)',
    [userId, step],
  );
}

export async function deleteTotp(db: Queryable, userId: string): Promise<boolean> {
  return changedAny(db, 'DELETE FROM user_totp WHERE user_id = $1', [userId]);
}

export async function replaceRecoveryCodes(db: Queryable, userId: string, codeHashes: string[]): Promise<void> {
  await db.query('DELETE FROM recovery_codes WHERE user_id = $1', [userId]);
  await db.query('INSERT INTO recovery_codes (user_id, code_hash) SELECT $1, unnest($2::text[])', [userId, codeHashes]);
}

export async function deleteRecoveryCodes(db: Queryable, userId: string): Promise<void> {
  await db.query('DELETE FROM recovery_codes WHERE user_id = $1', [userId]);
}

/** Use a recovery code once; false when it is unknown or was used. */
export async function useRecoveryCode(db: Queryable, userId: string, codeHash: string): Promise<boolean> {
  return changedAny(db, 'UPDATE recovery_codes SET used_at = now() WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL', [
    userId,
    codeHash,
  ]);
}

export async function countUnusedRecoveryCodes(db: Queryable, userId: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM recovery_codes WHERE user_id = $1 AND used_at IS NULL', [
    userId,
  ]);
  return rows[0]?.n ?? 0;
}

// ---- the second step of a sign-in ---------------------------------------------------------------

export interface SecondStepRow {
  user_id: string;
  persistent: boolean;
  return_to: string | null;
  must_enrol: boolean;
  /** how the first step was made (RFC 8176): 'pwd' a password, 'fed' a sign-in at an identity provider (migration 0062) */
  first_factor: string;
}

/**
 * Store a sign-in waiting for its second step, and remove the expired ones, in one statement with
 * the caller's other writes of the sign-in (`alongside`: the device row, identity/login-throttle.ts).
 */
export async function createSecondStep(
  db: Queryable,
  idHash: string,
  row: SecondStepRow,
  ttlSeconds: number,
  alongside: readonly SqlStatement[] = [],
): Promise<void> {
  const { text, params } = withAlongside(
    {
      text: `INSERT INTO second_step_logins (id_hash, user_id, persistent, return_to, must_enrol, first_factor, expires_at)
             VALUES ($1, $2, $3, $4, $5, $6, now() + make_interval(secs => $7))`,
      params: [idHash, row.user_id, row.persistent, row.return_to, row.must_enrol, row.first_factor, ttlSeconds],
    },
    // a new row is never expired: the two writes touch different rows
    [{ text: 'DELETE FROM second_step_logins WHERE expires_at < now()', params: [] }, ...alongside],
  );
  await db.query(text, params);
}

export async function findSecondStep(db: Queryable, idHash: string): Promise<SecondStepRow | undefined> {
  const { rows } = await db.query<SecondStepRow>(
    'SELECT user_id, persistent, return_to, must_enrol, first_factor FROM second_step_logins WHERE id_hash = $1 AND expires_at > now()',
    [idHash],
  );
  return rows[0];
}

/** Ends a pending sign-in; false when it was already ended (two completions race: one wins). */
export async function deleteSecondStep(db: Queryable, idHash: string): Promise<boolean> {
  return changedAny(db, 'DELETE FROM second_step_logins WHERE id_hash = $1', [idHash]);
}

// ---- sessions -----------------------------------------------------------------------------------

/**
 * Mark how a session was authenticated and that it was just now (amr, and authenticated_at: the
 * session's authentication time, the ID token's auth_time).
 */
export async function setSessionAuthentication(db: Queryable, idHash: string, amr: string[]): Promise<void> {
  await db.query('UPDATE sessions SET amr = $2, authenticated_at = now() WHERE id_hash = $1', [idHash, amr]);
}

export interface SessionAuthentication {
  amr: string[];
  /** authenticated_at in milliseconds since the epoch (with its microseconds as the fraction) */
  authenticated_at_ms: number;
}

export async function findSessionAuthentication(db: Queryable, idHash: string): Promise<SessionAuthentication | undefined> {
  const { rows } = await db.query<SessionAuthentication>(
    'SELECT amr, (extract(epoch FROM authenticated_at) * 1000)::float8 AS authenticated_at_ms FROM sessions WHERE id_hash = $1',
    [idHash],
  );
  const row = rows[0];
  return row && { amr: row.amr, authenticated_at_ms: Number(row.authenticated_at_ms) };
}

// ---- the policy that follows the tree -----------------------------------------------------------

export interface PolicyRow {
  organization_id: string;
  organization_name: string;
  organization_path: string;
  set_by_organization_path: string | null;
}

/** The requirements that hold at a path: set on it or on an ancestor, the highest first. */
export async function policiesAbove(db: Queryable, path: string): Promise<PolicyRow[]> {
  const { rows } = await db.query<PolicyRow>(
    `SELECT o.id AS organization_id, o.name AS organization_name, o.path AS organization_path, so.path AS set_by_organization_path
     FROM second_factor_policies p
     JOIN organizations o ON o.id = p.organization_id
     LEFT JOIN organizations so ON so.id = p.set_by_organization_id
     WHERE o.path = $1::text OR left($1::text, length(o.path) + 1) = o.path || '/'
     ORDER BY o.depth`,
    [path],
  );
  return rows;
}

/**
 * After the password: whether the user has a second factor (a confirmed authenticator app or a
 * passkey) and whether a policy requires one (userUnderPolicy), in one statement.
 */
export interface SecondFactorState {
  has_factor: boolean;
  required: boolean;
}

/** a user id no account has (the nil UUID) */
const NO_ACCOUNT = `'00000000-0000-0000-0000-000000000000'::uuid`;

/**
 * The select list of secondFactorState (has_factor, required) for the user of a SQL expression of
 * type uuid: for a statement of its own, or inside a larger one (the password step,
 * identity/queries.ts). NULL stands for no account: the same lookups then run for a user id that
 * no account has, so the answer takes the same work whether an account exists or not.
 */
export function secondFactorStateColumns(userId: string): string {
  const user = `coalesce(${userId}, ${NO_ACCOUNT})`;
  return `EXISTS (SELECT 1 FROM user_totp WHERE user_id = ${user} AND confirmed_at IS NOT NULL)
            OR EXISTS (SELECT 1 FROM passkeys WHERE user_id = ${user}) AS has_factor,
            ${userUnderPolicySql(user)} AS required`;
}

/** secondFactorState for a user id, or for no account (null). */
export async function secondFactorState(db: Queryable, userId: string | null): Promise<SecondFactorState> {
  const { rows } = await db.query<SecondFactorState>(`SELECT ${secondFactorStateColumns('$1::uuid')}`, [userId]);
  return rows[0] ?? { has_factor: false, required: false };
}

/**
 * Whether a policy requires a second factor of the user of a SQL expression: every member of the
 * subtree, native or signing in at an identity provider (a single sign-on connection, the
 * EXTERNAL_IDP_* provider), whose sign-in there proves a second factor only when its ID token's
 * amr says "mfa" (docs/second-factors.md). Read at every password login: it walks the policies
 * (few) and looks each one's organization up by its key, rather than joining all organizations (a
 * scan of 10,000 organizations took 2.3 ms a login; this, 0.3 ms).
 */
function userUnderPolicySql(userId: string): string {
  return `EXISTS (
       SELECT 1 FROM memberships m
       CROSS JOIN LATERAL (
         SELECT (SELECT o.path FROM organizations o WHERE o.id = p.organization_id) AS path FROM second_factor_policies p
       ) policy
       WHERE m.user_id = ${userId}
         AND (m.organization_path = policy.path OR left(m.organization_path, length(policy.path) + 1) = policy.path || '/')
     )`;
}

/** Whether a policy requires a second factor of this user. */
export async function userUnderPolicy(db: Queryable, userId: string): Promise<boolean> {
  const { rows } = await db.query<{ required: boolean }>(`SELECT ${userUnderPolicySql('$1')} AS required`, [userId]);
  return rows[0]?.required ?? false;
}

export async function insertPolicy(
  db: Queryable,
  organizationId: string,
  setByOrganizationId: string,
  setByUserId: string | null,
): Promise<void> {
  await db.query(
    `INSERT INTO second_factor_policies (organization_id, set_by_organization_id, set_by_user_id) VALUES ($1, $2, $3)
     ON CONFLICT (organization_id) DO NOTHING`,
    [organizationId, setByOrganizationId, setByUserId],
  );
}

export async function deletePolicy(db: Queryable, organizationId: string): Promise<void> {
  await db.query('DELETE FROM second_factor_policies WHERE organization_id = $1', [organizationId]);
}

/**
 * End the sessions of the subtree's members that a second factor did not prove: they are led to
 * set one up at their next sign-in. The session of the manager who sets the policy stays
 * (exceptIdHash; null when a service account sets it).
 */
export async function endSessionsWithoutSecondFactor(db: Queryable, path: string, exceptIdHash: string | null): Promise<void> {
  await db.query(
    `DELETE FROM sessions s USING memberships m
     WHERE s.user_id = m.user_id AND NOT ('mfa' = ANY (s.amr))
       AND (m.organization_path = $1::text OR (m.organization_path >= $1::text || '/' AND m.organization_path < $1::text || '0'))
       AND ($2::text IS NULL OR s.id_hash <> $2::text)`,
    [path, exceptIdHash],
  );
}

/** The members (user ids) of an organization's subtree: those a requirement set on it asks a second factor of. */
export async function membersBelow(db: Queryable, path: string): Promise<string[]> {
  const { rows } = await db.query<{ user_id: string }>(
    `SELECT m.user_id FROM memberships m WHERE ${subtreeCondition('m.organization_path', '$1')}`,
    [path],
  );
  return rows.map((r) => r.user_id);
}

// ---- the account, as the factors need it --------------------------------------------------------

/** Whether the session checked a password or factor within the last `seconds`. */
export async function authenticatedWithin(db: Queryable, sessionIdHash: string, seconds: number): Promise<boolean> {
  const { rows } = await db.query<{ recent: boolean }>(
    'SELECT authenticated_at > now() - make_interval(secs => $2) AS recent FROM sessions WHERE id_hash = $1',
    [sessionIdHash, seconds],
  );
  return rows[0]?.recent === true;
}

/** The session checked a password or factor now. */
export async function markAuthenticated(db: Queryable, sessionIdHash: string): Promise<void> {
  await db.query('UPDATE sessions SET authenticated_at = now() WHERE id_hash = $1', [sessionIdHash]);
}

export async function findPasswordHash(db: Queryable, userId: string): Promise<string | null> {
  const { rows } = await db.query<{ password_hash: string | null }>('SELECT password_hash FROM users WHERE id = $1', [userId]);
  return rows[0]?.password_hash ?? null;
}

/** The identity provider an account signs in at (users.external_idp), or null for a native account. */
export async function externalIdpOf(db: Queryable, userId: string): Promise<string | null> {
  const { rows } = await db.query<{ external_idp: string | null }>('SELECT external_idp FROM users WHERE id = $1', [userId]);
  return rows[0]?.external_idp ?? null;
}

/** The user as an enrolment names them (the account name of the app, the passkey's user). */
export async function findPerson(
  db: Queryable,
  userId: string,
): Promise<{ email: string; first_name: string; last_name: string } | undefined> {
  const { rows } = await db.query<{ email: string; first_name: string; last_name: string }>(
    'SELECT email, first_name, last_name FROM users WHERE id = $1',
    [userId],
  );
  return rows[0];
}
