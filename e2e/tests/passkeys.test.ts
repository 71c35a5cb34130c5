import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createUser, login } from '@partner-portal/server/test-kit';
import { addVirtualAuthenticator, newPage } from '../support/browser.js';
import { signedIn, usePortalAndBrowser } from '../support/portal.js';

/**
 * Passkeys end to end in Chromium with the DevTools virtual authenticator (a platform
 * authenticator with user verification): register, sign in with the passkey alone, remove.
 * The portal runs on http://localhost (WebAuthn refuses IP addresses as relying party).
 */
const e2e = usePortalAndBrowser({}, { publicHost: 'localhost' });

/** Register a passkey from the page (creation options → navigator.credentials.create → the portal). */
function registerPasskey(page: Page, name: string) {
  return page.evaluate(async (passkeyName) => {
    const optionsRes = await fetch('/api/factors/passkeys/registration-options', { method: 'POST', headers: { 'x-csrf': '1' } });
    const options = (await optionsRes.json()) as PublicKeyCredentialCreationOptionsJSON;
    const credential = (await navigator.credentials.create({
      publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(options),
    })) as PublicKeyCredential;
    const res = await fetch('/api/factors/passkeys', {
      method: 'POST',
      headers: { 'x-csrf': '1', 'content-type': 'application/json' },
      body: JSON.stringify({ name: passkeyName, response: credential.toJSON() }),
    });
    return { status: res.status, body: (await res.json()) as { passkey: { id: string; name: string }; recovery_codes: string[] | null } };
  }, name);
}

/** Sign in with a discoverable passkey alone (no e-mail address given). */
function signInWithPasskey(page: Page) {
  return page.evaluate(async () => {
    const optionsRes = await fetch('/api/identity/passkey-options', { method: 'POST', headers: { 'x-csrf': '1' } });
    const options = (await optionsRes.json()) as PublicKeyCredentialRequestOptionsJSON;
    const credential = (await navigator.credentials.get({
      publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(options),
    })) as PublicKeyCredential;
    const res = await fetch('/api/identity/passkey-login', {
      method: 'POST',
      headers: { 'x-csrf': '1', 'content-type': 'application/json' },
      body: JSON.stringify({ response: credential.toJSON() }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  });
}

const api = (page: Page, method: string, path: string) =>
  page.evaluate(
    async ([m, p]) => {
      const res = await fetch(p, { method: m, headers: { 'x-csrf': '1' } });
      const text = await res.text();
      return { status: res.status, body: text ? (JSON.parse(text) as Record<string, any>) : null };
    },
    [method, path] as const,
  );

describe('passkeys in Chromium', () => {
  it('registers a passkey, signs in with it alone (satisfying a policy by itself), and removes it', async () => {
    const user = await createUser(e2e.portal);
    const context = await signedIn(e2e.browser, e2e.portal, user.id);
    const { page, watch } = await newPage(context);
    await page.goto('/health');
    await addVirtualAuthenticator(page);

    const registered = await registerPasskey(page, 'Work laptop');
    expect(registered.status, JSON.stringify(registered.body)).toBe(201);
    expect(registered.body.passkey.name).toBe('Work laptop');
    expect(registered.body.recovery_codes).toHaveLength(10); // the first factor brings recovery codes
    let factors = await api(page, 'GET', '/api/factors');
    expect(factors.body!.passkeys).toEqual([expect.objectContaining({ name: 'Work laptop', last_used_at: null })]);
    await e2e.portal.smtp.waitFor(user.email, (m) => m.subject === 'A second factor was added to your Partner Portal account');

    // the provider's administrators require a second factor everywhere: the passkey satisfies it by itself
    const admin = await e2e.portal.sessionFor(e2e.portal.adminUserId);
    expect((await admin.put(`/api/organizations/${e2e.portal.rootOrganizationId}/second-factor-policy`, { required: true })).status).toBe(
      200,
    );

    // signed out, the passkey alone signs in (discoverable: no e-mail address needed)
    expect((await api(page, 'POST', '/api/identity/logout')).status).toBe(200);
    expect((await api(page, 'GET', '/api/identity/user-info')).status).toBe(401);
    const signIn = await signInWithPasskey(page);
    expect(signIn.status, JSON.stringify(signIn.body)).toBe(200);
    expect(signIn.body).toMatchObject({ error: null, next_step: null });
    expect((await api(page, 'GET', '/api/identity/user-info')).body!.email).toBe(user.email);
    const { rows } = await e2e.portal.services.db.query<{ amr: string[] }>('SELECT amr FROM sessions WHERE user_id = $1', [user.id]);
    expect(rows.map((r) => r.amr)).toEqual([['hwk', 'mfa']]);
    factors = await api(page, 'GET', '/api/factors');
    expect(factors.body!.passkeys[0].last_used_at).not.toBeNull();

    // a password sign-in of this account now needs a second step (the passkey counts as a factor)
    const second = await login(e2e.portal.client(), user);
    expect(second.body.next_step).toBe('second_factor');
    expect((await admin.put(`/api/organizations/${e2e.portal.rootOrganizationId}/second-factor-policy`, { required: false })).status).toBe(
      200,
    );

    // remove it: it no longer signs in
    const removed = await api(page, 'DELETE', `/api/factors/passkeys/${registered.body.passkey.id}`);
    expect(removed.status).toBe(204);
    expect((await api(page, 'GET', '/api/factors')).body!.passkeys).toEqual([]);
    await api(page, 'POST', '/api/identity/logout');
    const refused = await signInWithPasskey(page);
    expect(refused.status).toBe(400);
    expect(refused.body.i18NTranslationKey).toBe('passkey_not_verified');
    expect(watch.problems.filter((p) => !/status of 400/.test(p))).toEqual([]);
    await context.close();
  });
});
