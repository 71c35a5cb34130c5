import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpClient } from '../support/http.js';
import { NO_LOGIN_LIMITS, startPortal, type TestPortal } from '../support/portal.js';
import { login } from '../support/sign-in.js';
import { createUser, mailedResetLink, resetPassword } from './support.js';

/** change-password, update-profile, forgot/validate/reset password over HTTP, e-mails from the SMTP sink. */
let portal: TestPortal;

beforeAll(async () => (portal = await startPortal(NO_LOGIN_LIMITS)));
afterAll(() => portal?.close());

const fieldKeys = (body: any, field: string): string[] => (body.errors?.[field] ?? []).map((e: any) => e.translation_key);

const changePassword = (client: HttpClient, current: string, next: string, confirm = next) =>
  client.post('/api/identity/change-password', { current_password: current, new_password: next, confirm_password: confirm });
/** A new user's browser, signed in. */
const aNewUser = async () => portal.sessionFor((await createUser(portal)).id);
const validateReset = (userId: string, token: string) =>
  portal.client().post('/api/identity/validate-reset-token', { user_id: userId, token });

describe('POST /api/identity/change-password', () => {
  it('changes the password (204): the new one logs in, the old one no longer', async () => {
    const user = await createUser(portal);
    const client = await portal.sessionFor(user.id);
    const res = await changePassword(client, user.password, 'New-Horse-Stable-9');
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await login(portal.client(), { email: user.email, password: 'New-Horse-Stable-9' })).status).toBe(200);
    expect((await login(portal.client(), { email: user.email, password: user.password })).status).toBe(400);
    // this browser stays signed in
    expect((await client.get('/api/identity/user-info')).status).toBe(200);
  });

  it('signs out the other browsers of the user', async () => {
    const user = await createUser(portal);
    const here = await portal.sessionFor(user.id);
    const elsewhere = await portal.sessionFor(user.id);
    await changePassword(here, user.password, 'Other-Horse-77!');
    expect((await here.get('/api/identity/user-info')).status).toBe(200);
    expect((await elsewhere.get('/api/identity/user-info')).status).toBe(401);
  });

  it('409 current_password_incorrect when the current password is wrong', async () => {
    const user = await createUser(portal);
    const client = await portal.sessionFor(user.id);
    const res = await changePassword(client, 'Not-The-Passw0rd', 'New-Horse-Stable-9');
    expect(res.status).toBe(409);
    expect(res.body.i18NTranslationKey).toBe('current_password_incorrect');
  });

  it('400 password_error_no_match when new and confirm differ', async () => {
    const user = await createUser(portal);
    const res = await changePassword(await portal.sessionFor(user.id), user.password, 'New-Horse-Stable-9', 'New-Horse-Stable-8');
    expect(res.status).toBe(400);
    expect(fieldKeys(res.body, 'confirm_password')).toEqual(['password_error_no_match']);
  });

  it('400 fill_all_required_fields for missing fields', async () => {
    const user = await createUser(portal);
    const res = await changePassword(await portal.sessionFor(user.id), '', '');
    expect(res.status).toBe(400);
    for (const f of ['current_password', 'new_password', 'confirm_password'])
      expect(fieldKeys(res.body, f)).toContain('fill_all_required_fields');
  });

  it.each([
    ['Sh0rt!', 'password_too_short'],
    ['no-digits-Here', 'password_requires_digit'],
    ['NO-LOWER-123', 'password_requires_lower'],
    ['no-upper-123', 'password_requires_upper'],
    ['NoSpecial123', 'password_requires_non_alphanumeric'],
    ['P@ssw0rd2024!', 'password_too_common'],
    ['Summer2025!', 'password_too_common'],
  ])('400 for a new password breaking the policy: %s → %s', async (password, key) => {
    const user = await createUser(portal);
    const res = await changePassword(await portal.sessionFor(user.id), user.password, password);
    expect(res.status).toBe(400);
    expect(fieldKeys(res.body, 'new_password')).toContain(key);
  });

  it('accepts long passphrases (64 and 128 characters)', async () => {
    const user = await createUser(portal);
    const client = await portal.sessionFor(user.id);
    const p64 = `Aa1!${'correct-horse-battery-staple-'.repeat(3)}`.slice(0, 64);
    const p128 = `Bb2?${'another-long-passphrase-word-'.repeat(5)}`.slice(0, 128);
    expect((await changePassword(client, user.password, p64)).status).toBe(204);
    expect((await changePassword(client, p64, p128)).status).toBe(204);
    const tooLong = `${p128}x`;
    expect((await changePassword(client, p128, tooLong)).status).toBe(400);
  });

  it('401 without a session', async () => {
    const res = await portal
      .client()
      .post('/api/identity/change-password', { current_password: 'a', new_password: 'b', confirm_password: 'b' });
    expect(res.status).toBe(401);
  });

  it('403 for an external identity account', async () => {
    const external = await createUser(portal, { password: null, externalIdp: 'external', externalSubject: 'ext-1' });
    const res = await changePassword(await portal.sessionFor(external.id), 'Whatever-1!', 'New-Horse-Stable-9');
    expect(res.status).toBe(403);
    expect(res.body.i18NTranslationKey).toBe('external_identity_user');
  });
});

describe('PUT /api/identity/update-profile', () => {
  it('updates trimmed names and the language (204), user-info shows them', async () => {
    const user = await createUser(portal);
    const client = await portal.sessionFor(user.id);
    const res = await client.put('/api/identity/update-profile', { first_name: '  Anna ', last_name: ' de Vries  ', language_code: 'nl' });
    expect(res.status).toBe(204);
    const me = await client.get('/api/identity/user-info');
    expect(me.body).toMatchObject({ firstName: 'Anna', lastName: 'de Vries', fullName: 'Anna de Vries', languageCode: 'nl' });
  });

  it('400 with the keys of docs/product.md, "Validation" for missing names and language', async () => {
    const res = await (await aNewUser()).put('/api/identity/update-profile', { first_name: '  ', last_name: '', language_code: '' });
    expect(res.status).toBe(400);
    expect(fieldKeys(res.body, 'first_name')).toContain('first_name_required');
    expect(fieldKeys(res.body, 'last_name')).toContain('last_name_required');
    expect(fieldKeys(res.body, 'language_code')).toContain('language_code_required');
  });

  it('400 invalid_language_code for a language outside en, nl, de, fr, es, pt-BR', async () => {
    for (const language_code of ['pt', 'pt-br', 'it']) {
      const res = await (await aNewUser()).put('/api/identity/update-profile', { first_name: 'A', last_name: 'B', language_code });
      expect(res.status, language_code).toBe(400);
      expect(fieldKeys(res.body, 'language_code')).toContain('invalid_language_code');
    }
  });

  it('keeps pt-BR, the sixth user language (docs/decisions/012-user-languages.md)', async () => {
    const client = await aNewUser();
    const res = await client.put('/api/identity/update-profile', { first_name: 'Ana', last_name: 'Souza', language_code: 'pt-BR' });
    expect(res.status).toBe(204);
    expect((await client.get('/api/identity/user-info')).body.languageCode).toBe('pt-BR');
  });

  it('401 without a session', async () => {
    expect(
      (await portal.client().put('/api/identity/update-profile', { first_name: 'A', last_name: 'B', language_code: 'en' })).status,
    ).toBe(401);
  });
});

describe('forgot, validate and reset password', () => {
  it('sends a reset link in the user language; the link validates, resets once, and ends every session', async () => {
    const user = await createUser(portal, { language: 'de', firstName: 'Greta' });
    const signedIn = await portal.sessionFor(user.id);
    const res = await portal.client().post('/api/identity/forgot-password', { email_address: user.email });
    expect(res.status).toBe(204);
    const mail = await portal.smtp.waitFor(user.email);
    expect(mail.html).toBeTruthy();
    expect(mail.text).toContain('Greta');
    const link = mail.links.find((l) => l.includes('/reset-password'))!;
    const url = new URL(link);
    expect(`${url.origin}${url.pathname}`).toBe(`${portal.url}/reset-password`);
    expect(url.searchParams.get('userId')).toBe(user.id);
    // the page speaks the user's language whatever the browser's
    expect(url.searchParams.get('lang')).toBe('de');
    const code = url.searchParams.get('code')!;
    expect(Buffer.from(code, 'base64url').length).toBeGreaterThanOrEqual(16);
    // only a hash is stored
    const stored = await portal.services.db.query<{ token_hash: string }>('SELECT token_hash FROM single_use_tokens WHERE user_id = $1', [
      user.id,
    ]);
    expect(stored.rows[0]!.token_hash).not.toBe(code);

    const valid = await validateReset(user.id, code);
    expect(valid.status).toBe(200);
    expect(valid.body).toEqual({ is_valid: true, reset_token: code });

    const reset = await resetPassword(portal, user.id, code, 'Fresh-Meadow-42');
    expect(reset.status).toBe(200);
    expect((await signedIn.get('/api/identity/user-info')).status).toBe(401);
    expect((await login(portal.client(), { email: user.email, password: 'Fresh-Meadow-42' })).status).toBe(200);
    expect((await login(portal.client(), { email: user.email, password: user.password })).status).toBe(400);

    // single use
    const again = await resetPassword(portal, user.id, code, 'Fresh-Meadow-43');
    expect(again.status).toBe(409);
    expect(again.body.i18NTranslationKey).toBe('reset_link_expired');
    expect((await validateReset(user.id, code)).body).toEqual({
      is_valid: false,
      reset_token: null,
    });
  });

  /**
   * Forgot-password answers at once and looks the address up after the answer: the requests made
   * so far are handled once a request for a known user, made after them, has had its e-mail sent
   * (an e-mail to an earlier address, had it been sent, would have come first).
   */
  async function earlierRequestsHandled(): Promise<void> {
    const witness = await createUser(portal);
    expect((await portal.client().post('/api/identity/forgot-password', { email_address: witness.email })).status).toBe(204);
    await portal.smtp.waitFor(witness.email);
  }

  it('answers 204 for an unknown address too, and sends nothing', async () => {
    const res = await portal.client().post('/api/identity/forgot-password', { email_address: 'nobody-here@example.com' });
    expect(res.status).toBe(204);
    await earlierRequestsHandled();
    expect(portal.smtp.to('nobody-here@example.com')).toHaveLength(0);
  });

  it('sends nothing to an external identity account (still 204)', async () => {
    const external = await createUser(portal, { password: null, externalIdp: 'external' });
    const res = await portal.client().post('/api/identity/forgot-password', { email_address: external.email });
    expect(res.status).toBe(204);
    await earlierRequestsHandled();
    expect(portal.smtp.to(external.email)).toHaveLength(0);
  });

  it('400 fill_in_email / invalid_email_address', async () => {
    const empty = await portal.client().post('/api/identity/forgot-password', { email_address: '' });
    expect(empty.status).toBe(400);
    expect(fieldKeys(empty.body, 'email_address')).toContain('fill_in_email');
    const bad = await portal.client().post('/api/identity/forgot-password', { email_address: 'not-an-address' });
    expect(bad.status).toBe(400);
    expect(fieldKeys(bad.body, 'email_address')).toContain('invalid_email_address');
  });

  const resetCode = async (user: { email: string }) => (await mailedResetLink(portal, user.email)).code;

  it('409 reset_link_expired after the hour', async () => {
    const user = await createUser(portal);
    const code = await resetCode(user);
    await portal.services.db.query(`UPDATE single_use_tokens SET expires_at = now() - interval '1 second' WHERE user_id = $1`, [user.id]);
    expect((await validateReset(user.id, code)).body.is_valid).toBe(false);
    const res = await resetPassword(portal, user.id, code, 'Fresh-Meadow-42');
    expect(res.status).toBe(409);
    expect(res.body.i18NTranslationKey).toBe('reset_link_expired');
  });

  it('a newer link replaces an older one', async () => {
    const user = await createUser(portal);
    const first = await resetCode(user);
    const second = await resetCode(user);
    expect(first).not.toBe(second);
    expect((await validateReset(user.id, first)).body.is_valid).toBe(false);
    expect((await validateReset(user.id, second)).body.is_valid).toBe(true);
  });

  it('400 for a wrong confirmation or a weak password, 409 for a wrong token', async () => {
    const user = await createUser(portal);
    const code = await resetCode(user);
    const mismatch = await resetPassword(portal, user.id, code, 'Fresh-Meadow-42', 'Fresh-Meadow-41');
    expect(mismatch.status).toBe(400);
    expect(fieldKeys(mismatch.body, 'confirm_password')).toEqual(['password_error_no_match']);
    const weak = await resetPassword(portal, user.id, code, 'short');
    expect(weak.status).toBe(400);
    expect(fieldKeys(weak.body, 'password')).toContain('password_too_short');
    const common = await resetPassword(portal, user.id, code, 'Welcome123!');
    expect(fieldKeys(common.body, 'password')).toContain('password_too_common');
    const wrong = await resetPassword(portal, user.id, 'x'.repeat(43), 'Fresh-Meadow-42');
    expect(wrong.status).toBe(409);
    // the link still works after those failures
    expect((await validateReset(user.id, code)).body.is_valid).toBe(true);
  });

  it('400 token_required / user_id_required; an unknown user validates like a wrong code', async () => {
    const missing = await validateReset('', '');
    expect(missing.status).toBe(400);
    expect(fieldKeys(missing.body, 'user_id')).toContain('user_id_required');
    expect(fieldKeys(missing.body, 'token')).toContain('token_required');
    const unknown = await validateReset('00000000-0000-4000-8000-000000000000', 'abc');
    expect(unknown.status).toBe(200);
    expect(unknown.body).toEqual({ is_valid: false, reset_token: null });
    const malformed = await validateReset('not-a-uuid', 'abc');
    expect(malformed.status).toBe(200);
    expect(malformed.body).toEqual({ is_valid: false, reset_token: null });
    const reset = await resetPassword(portal, '00000000-0000-4000-8000-000000000000', 'abc', 'Fresh-Meadow-42');
    expect(reset.status).toBe(409);
  });
});
