import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from 'jose';
import type { Database, Queryable } from '../db/client.js';
import { seal, unseal } from '../sealed.js';

/**
 * The provider's signing keys, kept in oidc_signing_keys as JWE (dir, A256GCM) under a key derived
 * from the key-encryption secret (KEY_ENCRYPTION_KEY, or the generated one every instance shares).
 *
 * Rotation without downtime: a new key is added with an activation time in the future. Until
 * then every instance publishes it in the JWKS but still signs with the current key; from then on
 * every instance signs with the new one, and the previous key stays published for
 * RETIRED_KEY_RETENTION_SECONDS so tokens signed with it still verify. Instances reload the key
 * set every minute (see oidc/index.ts), so the whole rotation needs no restart.
 */
export const SIGNING_ALG = 'RS256';
export const RETIRED_KEY_RETENTION_SECONDS = 24 * 3600;
const KEYS_LOCK_KEY = 72_110_403;

export interface KeyRow {
  kid: string;
  encrypted: string;
  activated_at: string | Date;
  retired_at: string | Date | null;
}

const SEALING_PURPOSE = 'oidc-signing-keys';

async function newSigningKey(secret: string): Promise<{ kid: string; encrypted: string }> {
  const { privateKey } = await generateKeyPair(SIGNING_ALG, { extractable: true, modulusLength: 2048 });
  const jwk = await exportJWK(privateKey);
  const kid = await calculateJwkThumbprint(jwk);
  const full: JWK = { ...jwk, kid, alg: SIGNING_ALG, use: 'sig' };
  const encrypted = await seal(secret, SEALING_PURPOSE, JSON.stringify(full), kid);
  return { kid, encrypted };
}

async function decryptKey(secret: string, encrypted: string): Promise<JWK> {
  return JSON.parse(await unseal(secret, SEALING_PURPOSE, encrypted)) as JWK;
}

/** Make the first signing key when there is none that can sign (first start). Safe when instances start at once. */
export async function ensureSigningKey(db: Database, secret: string): Promise<void> {
  await db.withAdvisoryLock(KEYS_LOCK_KEY, async (q) => {
    const { rows } = await q.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM oidc_signing_keys WHERE retired_at IS NULL AND activated_at <= now()',
    );
    if ((rows[0]?.n ?? 0) > 0) return;
    await insertKey(q, secret, 0);
  });
}

async function insertKey(q: Queryable, secret: string, activateInSeconds: number): Promise<string> {
  const key = await newSigningKey(secret);
  await q.query(
    `INSERT INTO oidc_signing_keys (kid, encrypted, activated_at) VALUES ($1, $2, now() + make_interval(secs => $3::double precision))`,
    [key.kid, key.encrypted, activateInSeconds],
  );
  return key.kid;
}

/**
 * Rotate: add a new key that signs from `activateInSeconds` on (default 10 minutes, longer than
 * the one-minute reload so every instance and relying party has seen it first). Returns its kid.
 */
export async function rotateSigningKey(db: Database, secret: string, activateInSeconds = 600): Promise<string> {
  return db.withAdvisoryLock(KEYS_LOCK_KEY, (q) => insertKey(q, secret, activateInSeconds));
}

type KeyState = KeyRow & { active: boolean };

async function keyRows(db: Database): Promise<KeyState[]> {
  const { rows } = await db.query<KeyState>(
    `SELECT kid, encrypted, activated_at, retired_at, activated_at <= now() AS active
     FROM oidc_signing_keys WHERE retired_at IS NULL ORDER BY activated_at DESC, created_at DESC`,
  );
  return rows;
}

/**
 * Which keys the provider gets, the signing key first: the newest activated key signs; keys not
 * yet active and keys superseded less than the retention ago are published for verification;
 * keys superseded longer ago are to be retired.
 */
function selectKeys(rows: KeyState[]): { keep: KeyState[]; retire: KeyState[] } {
  const active = rows.filter((r) => r.active);
  const signing = active[0];
  if (!signing) throw new Error('no active signing key');
  const keep: KeyState[] = [signing];
  const retire: KeyState[] = [];
  const now = Date.now();
  // each older active key was superseded when the next newer one was activated
  for (let i = 1; i < active.length; i++) {
    const supersededAt = new Date(active[i - 1]!.activated_at).getTime();
    (now - supersededAt < RETIRED_KEY_RETENTION_SECONDS * 1000 ? keep : retire).push(active[i]!);
  }
  return { keep: [...keep, ...rows.filter((r) => !r.active)], retire };
}

/** The keys to hand to the provider (decrypted), the signing key first; marks superseded keys retired. */
export async function loadSigningKeys(db: Database, secret: string): Promise<JWK[]> {
  const { keep, retire } = selectKeys(await keyRows(db));
  for (const r of retire) await db.query('UPDATE oidc_signing_keys SET retired_at = now() WHERE kid = $1', [r.kid]);
  return Promise.all(keep.map((r) => decryptKey(secret, r.encrypted)));
}

/** The kids the provider would get, in order, to see cheaply whether the key set changed. */
export async function signingKeyFingerprint(db: Database): Promise<string> {
  return selectKeys(await keyRows(db))
    .keep.map((r) => r.kid)
    .join(',');
}
