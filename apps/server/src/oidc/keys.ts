import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from 'jose';
import type { Database, Queryable } from '../db/client.js';
import { seal, unseal } from '../sealed.js';
import {
  algsThatSign,
  insertSigningKey,
  liveSigningKeys,
  retireSigningKey,
  type KeyRow as KeyRows,
  type KeyState as KeyStates,
} from './key-queries.js';

/**
 * The provider's signing keys, kept in oidc_signing_keys as JWE (dir, A256GCM) under a key derived
 * from the key-encryption secret (KEY_ENCRYPTION_KEY, or the generated one every instance shares).
 *
 * Rotation without downtime: a new key is added with an activation time in the future. Until
 * then every instance publishes it in the JWKS but still signs with the current key; from then on
 * every instance signs with the new one, and the previous key stays published for
 * RETIRED_KEY_RETENTION_SECONDS so tokens signed with it still verify. Instances reload the key
 * set every minute (reloadKeys in oidc/runtime.ts, run by jobs.ts), so the whole rotation needs no restart.
 */
export const SIGNING_ALG = 'RS256';
/**
 * The algorithms the provider can sign with (OIDC_SIGNING_ALGS). RS256 always, and is every client's
 * default; ES256 (ECDSA P-256) signs the ID tokens of clients that register
 * id_token_signed_response_alg ES256, at a fraction of RSA-2048's cost. oidc-provider signs;
 * `jose` makes the keys. Each algorithm has its own keys and its own rotation.
 */
export const SIGNING_ALGS = ['RS256', 'ES256'] as const;
export type SigningAlg = (typeof SIGNING_ALGS)[number];
export const RETIRED_KEY_RETENTION_SECONDS = 24 * 3600;
const KEYS_LOCK_KEY = 72_110_403;

export type KeyRow = KeyRows<SigningAlg>;
type KeyState = KeyStates<SigningAlg>;

const SEALING_PURPOSE = 'oidc-signing-keys';

async function newSigningKey(secret: string, alg: SigningAlg): Promise<{ kid: string; encrypted: string }> {
  const { privateKey } = await generateKeyPair(alg, { extractable: true, ...(alg === 'RS256' ? { modulusLength: 2048 } : {}) });
  const jwk = await exportJWK(privateKey);
  const kid = await calculateJwkThumbprint(jwk);
  const full: JWK = { ...jwk, kid, alg, use: 'sig' };
  const encrypted = await seal(secret, SEALING_PURPOSE, JSON.stringify(full), kid);
  return { kid, encrypted };
}

async function decryptKey(secret: string, encrypted: string): Promise<JWK> {
  return JSON.parse(await unseal(secret, SEALING_PURPOSE, encrypted)) as JWK;
}

/**
 * Make the first signing key of each algorithm that has none that can sign (first start, or an
 * algorithm newly configured). Safe when instances start at once.
 */
export async function ensureSigningKey(db: Database, secret: string, algs: readonly SigningAlg[] = [SIGNING_ALG]): Promise<void> {
  await db.withAdvisoryLock(KEYS_LOCK_KEY, async (locked) => {
    const present = new Set(await algsThatSign<SigningAlg>(db));
    for (const alg of algs) if (!present.has(alg)) await insertKey(locked, secret, 0, alg);
  });
}

async function insertKey(db: Queryable, secret: string, activateInSeconds: number, alg: SigningAlg): Promise<string> {
  const key = await newSigningKey(secret, alg);
  await insertSigningKey(db, key.kid, key.encrypted, activateInSeconds, alg);
  return key.kid;
}

/**
 * Rotate: add a new key of an algorithm that signs from `activateInSeconds` on (default 10 minutes,
 * longer than the one-minute reload so every instance and relying party has seen it first).
 * Returns its kid.
 */
export async function rotateSigningKey(
  db: Database,
  secret: string,
  activateInSeconds = 600,
  alg: SigningAlg = SIGNING_ALG,
): Promise<string> {
  return db.withAdvisoryLock(KEYS_LOCK_KEY, (locked) => insertKey(locked, secret, activateInSeconds, alg));
}

/** selectKeys for each algorithm, in the order of the rows. */
function selectKeysByAlg(rows: KeyState[]): { keep: KeyState[]; retire: KeyState[] } {
  const keep: KeyState[] = [];
  const retire: KeyState[] = [];
  for (const alg of [...new Set(rows.map((r) => r.alg))]) {
    const selected = selectKeys(rows.filter((r) => r.alg === alg));
    keep.push(...selected.keep);
    retire.push(...selected.retire);
  }
  return { keep, retire };
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

/**
 * The keys to hand to the provider (decrypted), for each algorithm its signing key first (the
 * provider signs with the first key of the algorithm); marks superseded keys retired.
 */
export async function loadSigningKeys(db: Database, secret: string, algs: readonly SigningAlg[] = [SIGNING_ALG]): Promise<JWK[]> {
  const { keep, retire } = selectKeysByAlg(await liveSigningKeys(db, algs));
  for (const r of retire) await retireSigningKey(db, r.kid);
  return Promise.all(keep.map((r) => decryptKey(secret, r.encrypted)));
}

/** The kids the provider would get, in order, to see cheaply whether the key set changed. */
export async function signingKeyFingerprint(db: Database, algs: readonly SigningAlg[] = [SIGNING_ALG]): Promise<string> {
  return selectKeysByAlg(await liveSigningKeys(db, algs))
    .keep.map((r) => r.kid)
    .join(',');
}
