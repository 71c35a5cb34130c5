import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { hashRecoveryCode, isTotpCode, newRecoveryCodes, newTotpSecret, totpStep } from './totp.js';

describe('authenticator app codes', () => {
  it('accepts the code of the current step and its neighbours, with the step for replay protection', () => {
    const secret = newTotpSecret();
    const app = new TOTP({ secret: Secret.fromBase32(secret) });
    const now = Date.now();
    const step = Math.floor(now / 30_000);
    expect(totpStep(secret, app.generate({ timestamp: now }), now)).toBe(step);
    expect(totpStep(secret, app.generate({ timestamp: now + 30_000 }), now)).toBe(step + 1);
    expect(totpStep(secret, app.generate({ timestamp: now - 30_000 }), now)).toBe(step - 1);
    expect(totpStep(secret, app.generate({ timestamp: now + 90_000 }), now)).toBeNull();
    expect(totpStep(secret, 'abcdef', now)).toBeNull();
  });

  it('tells codes of the app from recovery codes', () => {
    expect(isTotpCode('123 456')).toBe(true);
    expect(isTotpCode('ABCDE-FGHIJ')).toBe(false);
  });
});

describe('recovery codes', () => {
  it('are ten different 128-bit codes, compared without case, spaces or dashes', () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    const code = codes[0]!;
    expect(hashRecoveryCode(code)).toBe(hashRecoveryCode(` ${code.replace(/-/g, ' ').toLowerCase()} `));
    expect(hashRecoveryCode(code)).not.toBe(hashRecoveryCode(codes[1]!));
  });
});
