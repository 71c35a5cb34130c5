import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { RECOVERY_CODE_COUNT } from '@partner-portal/contracts';
import { hashSecret } from '../../http/session.js';
import { seal, unseal } from '../../sealed.js';

/**
 * Authenticator apps (TOTP, RFC 6238, by otpauth): SHA-1, six digits, 30-second steps — what every
 * authenticator app understands. A code of the step before or after is accepted (clock drift).
 */
export const TOTP_ISSUER = 'Partner Portal';
const PERIOD = 30;
const WINDOW = 1;

function totp(secretBase32: string, label = ''): TOTP {
  return new TOTP({ issuer: TOTP_ISSUER, label, algorithm: 'SHA1', digits: 6, period: PERIOD, secret: Secret.fromBase32(secretBase32) });
}

/** A new 160-bit secret (RFC 4226's recommended size), base32 as typed into an app by hand. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

export async function totpEnrolment(
  secretBase32: string,
  accountName: string,
): Promise<{ secret: string; otpauth_uri: string; qr_code: string }> {
  const uri = totp(secretBase32, accountName).toString();
  return {
    secret: secretBase32,
    otpauth_uri: uri,
    // loaded at the first enrolment, not held by every portal from its start
    qr_code: await (await import('qrcode')).default.toDataURL(uri, { errorCorrectionLevel: 'M', margin: 1, width: 240 }),
  };
}

const SEALING_PURPOSE = 'totp-secrets';

/** The secret as stored: sealed with the key-encryption secret (secrets.ts). */
export function sealTotpSecret(keyEncryption: string, secretBase32: string): Promise<string> {
  return seal(keyEncryption, SEALING_PURPOSE, secretBase32);
}

export function unsealTotpSecret(keyEncryption: string, sealed: string): Promise<string> {
  return unseal(keyEncryption, SEALING_PURPOSE, sealed);
}

/** The time step of a valid code (for replay protection), or null. */
export function totpStep(secretBase32: string, code: string, now = Date.now()): number | null {
  const token = code.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(token)) return null;
  const delta = totp(secretBase32).validate({ token, timestamp: now, window: WINDOW });
  return delta === null ? null : Math.floor(now / 1000 / PERIOD) + delta;
}

/** Whether the input looks like a code of the app (six digits) rather than a recovery code. */
export function isTotpCode(code: string): boolean {
  return /^\d{6}$/.test(code.replace(/\s+/g, ''));
}

// ---- recovery codes -----------------------------------------------------------------------------

/** Recovery codes: 128 random bits, base32 in groups of five (26 characters). Shown once. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = new Secret({ buffer: new Uint8Array(randomBytes(16)).buffer }).base32;
    return chars.match(/.{1,5}/g)!.join('-');
  });
}

/** Upper case, without spaces and dashes: how a recovery code is compared. */
export function normalizeRecoveryCode(code: string): string {
  return code.toUpperCase().replace(/[\s-]+/g, '');
}

/** The stored form: SHA-256 (the codes carry 128 random bits, so a fast hash is enough). */
export function hashRecoveryCode(code: string): string {
  return hashSecret(`recovery-code:${normalizeRecoveryCode(code)}`);
}
