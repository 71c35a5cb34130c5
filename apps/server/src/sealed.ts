import { hkdfSync } from 'node:crypto';
import { CompactEncrypt, compactDecrypt } from 'jose';

/**
 * Secrets kept at rest encrypted as compact JWE (dir, A256GCM) under a key derived (HKDF-SHA-256)
 * from the key-encryption secret (KEY_ENCRYPTION_KEY, or the generated one every instance shares).
 * Each kind of secret uses its own derived key (`purpose`): the OpenID Connect signing keys
 * (oidc/keys.ts) and the authenticator-app secrets (modules/factors).
 */
export function sealingKey(secret: string, purpose: string): Uint8Array {
  return new Uint8Array(hkdfSync('sha256', secret, 'partner-portal', purpose, 32));
}

export async function seal(secret: string, purpose: string, plaintext: string, kid?: string): Promise<string> {
  return new CompactEncrypt(new TextEncoder().encode(plaintext))
    .setProtectedHeader({ alg: 'dir', enc: 'A256GCM', ...(kid ? { kid } : {}) })
    .encrypt(sealingKey(secret, purpose));
}

export async function unseal(secret: string, purpose: string, sealed: string): Promise<string> {
  const { plaintext } = await compactDecrypt(sealed, sealingKey(secret, purpose));
  return new TextDecoder().decode(plaintext);
}
