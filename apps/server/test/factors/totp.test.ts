import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPortal, type TestPortal } from '../support/portal.js';
import { createUser, type TestUser } from '../identity/support.js';
import { enrolTotp, passwordSteps, totpCode } from './support.js';

/**
 * Authenticator apps: enrolment (secret, otpauth URI, QR code, confirmation with a first code),
 * recovery codes (ten, shown once, stored hashed, each usable once, regenerable), the second step
 * of the sign-in, and throttling of wrong codes. Codes are computed by otpauth, as an app would.
 */
let portal: TestPortal;

beforeAll(async () => (portal = await startPortal()));
afterAll(() => portal?.close());

async function signedIn(user: TestUser) {
  const client = portal.client();
  const answer = await passwordSteps(client, user.email, user.password);
  expect(answer.next_step ?? null).toBeNull();
  return client;
}

describe('enrolment', () => {
  it('gives a secret, an otpauth URI and a QR code; keeps the secret encrypted; counts only once confirmed', async () => {
    const user = await createUser(portal);
    const client = await signedIn(user);
    const started = await client.post('/api/factors/totp');
    expect(started.status, started.text).toBe(200);
    const { secret, otpauth_uri: uri, qr_code: qr } = started.body;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const parsed = new URL(uri);
    expect(parsed.protocol).toBe('otpauth:');
    expect(parsed.searchParams.get('secret')).toBe(secret);
    expect(parsed.searchParams.get('issuer')).toBe('Partner Portal');
    expect(decodeURIComponent(parsed.pathname)).toContain(user.email);
    expect(qr).toMatch(/^data:image\/png;base64,/);

    const { rows } = await portal.services.db.query<{ secret_encrypted: string; confirmed_at: Date | null }>(
      'SELECT secret_encrypted, confirmed_at FROM user_totp WHERE user_id = $1',
      [user.id],
    );
    expect(rows[0]!.secret_encrypted.split('.')).toHaveLength(5); // compact JWE
    expect(rows[0]!.secret_encrypted).not.toContain(secret);
    expect(rows[0]!.confirmed_at).toBeNull();
    expect((await client.get('/api/factors')).body.totp.enabled).toBe(false);

    // not yet active: the sign-in needs no second step
    await signedIn(user);

    const wrong = await client.post('/api/factors/totp/confirm', { code: totpCode(secret, 10) });
    expect(wrong.status).toBe(400);
    expect(wrong.body.i18NTranslationKey).toBe('second_factor_code_invalid');

    const confirmed = await client.post('/api/factors/totp/confirm', { code: totpCode(secret) });
    expect(confirmed.status, confirmed.text).toBe(200);
    const codes = confirmed.body.recovery_codes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code.replace(/-/g, '')).toMatch(/^[A-Z2-7]{26}$/); // 128 random bits
    const stored = await portal.services.db.query<{ code_hash: string }>('SELECT code_hash FROM recovery_codes WHERE user_id = $1', [
      user.id,
    ]);
    expect(stored.rows).toHaveLength(10);
    for (const row of stored.rows) expect(codes).not.toContain(row.code_hash);

    const status = await client.get('/api/factors');
    expect(status.body).toMatchObject({ totp: { enabled: true }, recovery_codes_remaining: 10, required: false });

    // a second app needs the first removed
    const again = await client.post('/api/factors/totp');
    expect(again.status).toBe(409);
    expect(again.body.i18NTranslationKey).toBe('totp_already_enabled');
  });

  it('refuses a confirmation without a started enrolment, and anonymous calls', async () => {
    const user = await createUser(portal);
    const client = await signedIn(user);
    const res = await client.post('/api/factors/totp/confirm', { code: '123456' });
    expect(res.status).toBe(409);
    expect(res.body.i18NTranslationKey).toBe('totp_enrolment_not_started');
    expect((await portal.client().post('/api/factors/totp')).status).toBe(401);
    expect((await portal.client().get('/api/factors')).status).toBe(401);
    const empty = await client.post('/api/factors/totp/confirm', {});
    expect(empty.status).toBe(400);
  });
});

describe('sign-in with a second factor', () => {
  let user: TestUser;
  let secret: string;
  let recoveryCodes: string[];
  let confirmedWith: string;

  beforeAll(async () => {
    user = await createUser(portal);
    ({ secret, recoveryCodes, confirmedWith } = await enrolTotp(await signedIn(user)));
  });

  it('asks for a code after the password, with no session before it', async () => {
    const client = portal.client();
    const answer = await passwordSteps(client, user.email, user.password);
    expect(answer).toMatchObject({ next_step: 'second_factor', valid_return_url: null });
    expect(client.cookies.get('pp_session')).toBeUndefined();
    expect((await client.get('/api/identity/user-info')).status).toBe(401);

    // the code used to confirm the app cannot be used again (replay)
    const replay = await client.post('/api/identity/second-factor', { code: confirmedWith });
    expect(replay.status).toBe(400);
    expect(replay.body.i18NTranslationKey).toBe('second_factor_code_invalid');

    const done = await client.post('/api/identity/second-factor', { code: totpCode(secret, 1) });
    expect(done.status, done.text).toBe(200);
    expect(done.body).toMatchObject({ error: null, external_login: null, next_step: null });
    expect((await client.get('/api/identity/user-info')).body.email).toBe(user.email);
    const { rows } = await portal.services.db.query<{ amr: string[] }>(
      'SELECT amr FROM sessions WHERE user_id = $1 ORDER BY created_at DESC LIMIT 1',
      [user.id],
    );
    expect(rows[0]!.amr).toEqual(['pwd', 'otp', 'mfa']);

    // the pending sign-in is gone once completed
    const twice = await client.post('/api/identity/second-factor', { code: totpCode(secret, -1) });
    expect(twice.status).toBe(409);
    expect(twice.body.i18NTranslationKey).toBe('second_step_expired');
  });

  it('takes a recovery code once, in any case and with or without dashes', async () => {
    const first = portal.client();
    await passwordSteps(first, user.email, user.password);
    const code = recoveryCodes[0]!;
    const ok = await first.post('/api/identity/second-factor', { code: ` ${code.replace(/-/g, '').toLowerCase()} ` });
    expect(ok.status, ok.text).toBe(200);
    expect((await first.get('/api/factors')).body.recovery_codes_remaining).toBe(9);

    const second = portal.client();
    await passwordSteps(second, user.email, user.password);
    const reused = await second.post('/api/identity/second-factor', { code });
    expect(reused.status).toBe(400);
    expect(reused.body.i18NTranslationKey).toBe('second_factor_code_invalid');
  });

  it('regenerates the recovery codes: the old ones stop working, the new ones work', async () => {
    const client = portal.client();
    await passwordSteps(client, user.email, user.password);
    expect((await client.post('/api/identity/second-factor', { code: recoveryCodes[1]! })).status).toBe(200);
    const fresh = await client.post('/api/factors/recovery-codes');
    expect(fresh.status, fresh.text).toBe(200);
    expect(fresh.body.recovery_codes).toHaveLength(10);
    expect((await client.get('/api/factors')).body.recovery_codes_remaining).toBe(10);

    const other = portal.client();
    await passwordSteps(other, user.email, user.password);
    expect((await other.post('/api/identity/second-factor', { code: recoveryCodes[2]! })).status).toBe(400);
    expect((await other.post('/api/identity/second-factor', { code: fresh.body.recovery_codes[0] })).status).toBe(200);
  });

  it('without the pending sign-in cookie, a code does nothing', async () => {
    const res = await portal.client().post('/api/identity/second-factor', { code: totpCode(secret) });
    expect(res.status).toBe(409);
    expect(res.body.i18NTranslationKey).toBe('second_step_expired');
  });
});

describe('throttling of wrong codes', () => {
  it('refuses even the right code with 429 and Retry-After once the wrong ones reach the limit', async () => {
    const user = await createUser(portal);
    const { secret } = await enrolTotp(await signedIn(user));
    const client = portal.client();
    await passwordSteps(client, user.email, user.password);
    const limit = portal.config.LOGIN_RATE_LIMIT_PER_ACCOUNT;
    for (let i = 0; i < limit; i++) {
      const wrong = await client.post('/api/identity/second-factor', { code: '000000' === totpCode(secret, 1) ? '111111' : '000000' });
      expect(wrong.status).toBe(400);
    }
    const blocked = await client.post('/api/identity/second-factor', { code: totpCode(secret, 1) });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(blocked.body.i18NTranslationKey).toBe('too_many_requests');
    expect(client.cookies.get('pp_session')).toBeUndefined();
  });
});

describe('the metric of second-factor checks', () => {
  it('counts codes that passed and codes that failed (partner_portal_second_factor_checks_total)', async () => {
    const counted = async (outcome: string) =>
      (await portal.services.metrics.secondFactors.get()).values.find((v) => v.labels.outcome === outcome)?.value ?? 0;
    const [passedBefore, failedBefore] = [await counted('succeeded'), await counted('failed')];
    const user = await createUser(portal);
    const { secret } = await enrolTotp(await signedIn(user));
    const client = portal.client();
    expect((await passwordSteps(client, user.email, user.password)).next_step).toBe('second_factor');
    expect((await client.post('/api/identity/second-factor', { code: '000000' })).body.i18NTranslationKey).toBe(
      'second_factor_code_invalid',
    );
    expect((await client.post('/api/identity/second-factor', { code: totpCode(secret, 1) })).status).toBe(200);
    expect(await counted('failed')).toBe(failedBefore + 1);
    expect(await counted('succeeded')).toBe(passedBefore + 1);
  });
});
