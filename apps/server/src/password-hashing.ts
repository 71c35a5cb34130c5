import { availableParallelism } from 'node:os';
import { hash, verify } from '@node-rs/argon2';
import pLimit from 'p-limit';

/** argon2id with the parameters of OWASP's recommendation (m=19456 KiB, t=2, p=1). */
export const ARGON2_OPTIONS = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

/**
 * Hashes in flight, one per core: each holds 19 MiB on a libuv thread, and more of them at once
 * than there are cores only adds memory (they are CPU-bound), docs/performance.md "Memory".
 */
const argon2Slot = pLimit(availableParallelism());

/**
 * The hashes and verifications this process has started: the work a password costs, which must
 * not depend on whether an address has an account (apps/server/test/security/brute-force.test.ts
 * compares it for known and unknown addresses).
 */
export const passwordWork = { hashes: 0, verifications: 0 };

export function hashPassword(password: string): Promise<string> {
  passwordWork.hashes += 1;
  return argon2Slot(() => hash(password, ARGON2_OPTIONS));
}

/** Whether `password` matches the stored argon2 `passwordHash`; a malformed hash does not match. */
export function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  passwordWork.verifications += 1;
  return argon2Slot(() => verify(passwordHash, password, ARGON2_OPTIONS)).catch(() => false);
}
