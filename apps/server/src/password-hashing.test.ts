import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './password-hashing.js';

describe('passwords', () => {
  it('verifies an argon2id hash of the password, rejects another password and a malformed hash', async () => {
    const stored = await hashPassword('Correct-Horse-9');
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(stored, 'Correct-Horse-9')).toBe(true);
    expect(await verifyPassword(stored, 'correct-horse-9')).toBe(false);
    expect(await verifyPassword('not-a-hash', 'Correct-Horse-9')).toBe(false);
  });
});
