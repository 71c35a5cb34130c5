import { availableParallelism } from 'node:os';
import { hash, verify } from '@node-rs/argon2';

/** argon2id with the parameters of OWASP's recommendation (m=19456 KiB, t=2, p=1). */
export const ARGON2_OPTIONS = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

/**
 * Runs at most `max` tasks at once; the others wait in arrival order. A finished task hands its
 * slot straight to the next one.
 */
export function concurrencyLimit(max: number) {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async function run<T>(task: () => Promise<T>): Promise<T> {
    if (active < max) active++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else active--;
    }
  };
}

/**
 * Hashes in flight, one per core: each holds 19 MiB on a libuv thread, and more of them at once
 * than there are cores only adds memory (they are CPU-bound), docs/performance.md "Memory".
 */
const argon2Slot = concurrencyLimit(availableParallelism());

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
