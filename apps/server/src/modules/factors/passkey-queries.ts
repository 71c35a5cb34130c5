import type { Queryable } from '../../db/client.js';
import { changedAny } from './queries.js';

/** SQL of passkeys and their WebAuthn challenges. */

// ---- passkeys -----------------------------------------------------------------------------------

export interface PasskeyRow {
  id: string;
  user_id: string;
  credential_id: string;
  public_key: Uint8Array;
  counter: string | number;
  transports: string[];
  device_type: string;
  backed_up: boolean;
  name: string;
  created_at: Date | string;
  last_used_at: Date | string | null;
}

const PASSKEY_COLUMNS =
  'id, user_id, credential_id, public_key, counter, transports, device_type, backed_up, name, created_at, last_used_at';

export async function listPasskeys(db: Queryable, userId: string): Promise<PasskeyRow[]> {
  const { rows } = await db.query<PasskeyRow>(`SELECT ${PASSKEY_COLUMNS} FROM passkeys WHERE user_id = $1 ORDER BY created_at`, [userId]);
  return rows;
}

/** The passkey of a credential id, unless its account is deactivated (members/activation.ts: it cannot sign in). */
export async function findPasskeyByCredentialId(db: Queryable, credentialId: string): Promise<PasskeyRow | undefined> {
  const { rows } = await db.query<PasskeyRow>(
    `SELECT ${PASSKEY_COLUMNS} FROM passkeys
     WHERE credential_id = $1 AND NOT EXISTS (SELECT 1 FROM users u WHERE u.id = passkeys.user_id AND u.deactivated_at IS NOT NULL)`,
    [credentialId],
  );
  return rows[0];
}

export async function insertPasskey(
  db: Queryable,
  p: {
    userId: string;
    credentialId: string;
    publicKey: Uint8Array;
    counter: number;
    transports: string[];
    deviceType: string;
    backedUp: boolean;
    name: string;
  },
): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO passkeys (user_id, credential_id, public_key, counter, transports, device_type, backed_up, name)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
    [p.userId, p.credentialId, Buffer.from(p.publicKey), p.counter, p.transports, p.deviceType, p.backedUp, p.name],
  );
  return rows[0]!.id;
}

export async function markPasskeyUsed(db: Queryable, id: string, counter: number): Promise<void> {
  await db.query('UPDATE passkeys SET counter = $2, last_used_at = now() WHERE id = $1', [id, counter]);
}

export async function renamePasskey(db: Queryable, userId: string, id: string, name: string): Promise<boolean> {
  return changedAny(db, 'UPDATE passkeys SET name = $3 WHERE id = $2 AND user_id = $1', [userId, id, name]);
}

export async function deletePasskey(db: Queryable, userId: string, id: string): Promise<boolean> {
  return changedAny(db, 'DELETE FROM passkeys WHERE id = $2 AND user_id = $1', [userId, id]);
}

export async function deletePasskeys(db: Queryable, userId: string): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM passkeys WHERE user_id = $1', [userId]);
  return rowCount;
}

export async function putChallenge(
  db: Queryable,
  key: string,
  userId: string | null,
  challenge: string,
  ttlSeconds: number,
): Promise<void> {
  await db.query('DELETE FROM webauthn_challenges WHERE expires_at < now()');
  await db.query(
    `INSERT INTO webauthn_challenges (key, user_id, challenge, expires_at) VALUES ($1, $2, $3, now() + make_interval(secs => $4))
     ON CONFLICT (key) DO UPDATE SET user_id = EXCLUDED.user_id, challenge = EXCLUDED.challenge, expires_at = EXCLUDED.expires_at`,
    [key, userId, challenge, ttlSeconds],
  );
}

/** Take a challenge (it works once). */
export async function takeChallenge(db: Queryable, key: string): Promise<{ user_id: string | null; challenge: string } | undefined> {
  const { rows } = await db.query<{ user_id: string | null; challenge: string }>(
    'DELETE FROM webauthn_challenges WHERE key = $1 AND expires_at > now() RETURNING user_id, challenge',
    [key],
  );
  return rows[0];
}
