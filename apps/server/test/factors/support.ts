import { Secret, TOTP } from 'otpauth';
import { expect } from 'vitest';
import type { HttpClient } from '../support/http.js';

/** A code of the authenticator app, computed as an app would (otpauth), `stepsAhead` steps later. */
export function totpCode(secret: string, stepsAhead = 0): string {
  return new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({
    timestamp: Date.now() + stepsAhead * 30_000,
  });
}

/**
 * Set up an authenticator app for the client's session (or a sign-in waiting for one); returns the
 * secret, the recovery codes, the code it was confirmed with and the confirmation's answer.
 */
export async function enrolTotp(
  client: HttpClient,
): Promise<{ secret: string; recoveryCodes: string[]; confirmedWith: string; answer: { valid_return_url?: string | null } }> {
  const started = await client.post('/api/factors/totp');
  expect(started.status, started.text).toBe(200);
  const secret = started.body.secret as string;
  const confirmedWith = totpCode(secret);
  const confirmed = await client.post('/api/factors/totp/confirm', { code: confirmedWith });
  expect(confirmed.status, confirmed.text).toBe(200);
  return { secret, recoveryCodes: confirmed.body.recovery_codes as string[], confirmedWith, answer: confirmed.body };
}

/** The password steps of the login; returns the answer of the password step. */
export async function passwordSteps(client: HttpClient, email: string, password: string, extra: Record<string, unknown> = {}) {
  const step1 = await client.post('/api/identity/email-login', { email, ...extra });
  expect(step1.status, step1.text).toBe(200);
  const step2 = await client.post('/api/identity/login', { email, password, ...extra });
  expect(step2.status, step2.text).toBe(200);
  return step2.body as { valid_return_url: string | null; next_step?: string | null };
}
