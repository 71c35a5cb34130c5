import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/password-hashing.js';
import { startPortalWith, type TestPortal } from '../support/portal.js';
import { createUser } from '../identity/support.js';
import { buildFixture, type Fixture } from '../organizations/fixtures.js';
import { enrolTotp, passwordSteps, totpCode } from './support.js';

/**
 * Changing how one signs in: a password or second factor checked within five minutes; e-mail
 * notices in the user's language; a userManager's reset of a member's second factors (audited,
 * with the authorization of changing the member's rights).
 */
let portal: TestPortal;
let f: Fixture;

beforeAll(async () => ({ portal, built: f } = await startPortalWith(buildFixture)));
afterAll(() => portal?.close());

async function ageSession(userId: string): Promise<void> {
  await portal.services.db.query("UPDATE sessions SET authenticated_at = now() - interval '6 minutes' WHERE user_id = $1", [userId]);
}

describe('a fresh password or second factor', () => {
  it('is needed to add or remove an app or make new recovery codes, and confirm-identity gives five minutes', async () => {
    const user = await createUser(portal);
    const client = await portal.sessionFor(user.id);
    await ageSession(user.id);
    const stale = await client.post('/api/factors/totp');
    expect(stale.status).toBe(403);
    expect(stale.body.i18NTranslationKey).toBe('recent_authentication_required');

    const wrong = await client.post('/api/factors/confirm-identity', { password: 'not-the-password' });
    expect(wrong.status).toBe(409);
    expect(wrong.body.i18NTranslationKey).toBe('current_password_incorrect');
    expect((await client.post('/api/factors/confirm-identity', {})).status).toBe(400);
    expect((await client.post('/api/factors/confirm-identity', { password: user.password })).status).toBe(204);
    const { secret } = await enrolTotp(client);

    await ageSession(user.id);
    expect((await client.post('/api/factors/recovery-codes')).body.i18NTranslationKey).toBe('recent_authentication_required');
    expect((await client.delete('/api/factors/totp')).body.i18NTranslationKey).toBe('recent_authentication_required');
    // a code of the app counts too
    expect((await client.post('/api/factors/confirm-identity', { code: totpCode(secret, 1) })).status).toBe(204);
    expect((await client.post('/api/factors/recovery-codes')).status).toBe(200);
    expect((await client.delete('/api/factors/totp')).status).toBe(204);
    expect((await client.get('/api/factors')).body).toMatchObject({ totp: { enabled: false }, recovery_codes_remaining: 0 });
    expect((await portal.client().post('/api/factors/confirm-identity', { password: 'x' })).status).toBe(401);
  });
});

describe('e-mail notices in the user’s language', () => {
  it('when an app is added or removed and when the password changes', async () => {
    const user = await createUser(portal, { language: 'de', firstName: 'Greta' });
    const client = await portal.sessionFor(user.id);
    await enrolTotp(client);
    const added = await portal.smtp.waitFor(user.email, (m) => m.subject.includes('hinzugefügt'));
    expect(added.subject).toBe('Ihrem Partner-Portal-Konto wurde ein zweiter Faktor hinzugefügt');
    expect(added.text).toContain('Hallo Greta,');
    expect(added.html).toContain('<html lang="de">');

    expect((await client.delete('/api/factors/totp')).status).toBe(204);
    await portal.smtp.waitFor(user.email, (m) => m.subject === 'Von Ihrem Partner-Portal-Konto wurde ein zweiter Faktor entfernt');

    const changed = await client.post('/api/identity/change-password', {
      current_password: user.password,
      new_password: 'Another-Str0ng-Pass!',
      confirm_password: 'Another-Str0ng-Pass!',
    });
    expect(changed.status, changed.text).toBe(204);
    await portal.smtp.waitFor(user.email, (m) => m.subject === 'Ihr Partner-Portal-Passwort wurde geändert');
  });
});

describe("a userManager resets a member's second factors", () => {
  it('removes them, audits it, tells the member; the next sign-in needs no code', async () => {
    const password = 'Tr1cky-Horse-Battery';
    await portal.services.db.query('UPDATE users SET password_hash = $1 WHERE id = $2', [await hashPassword(password), f.farmer.userId]);
    await enrolTotp(f.farmer.client);
    expect((await passwordSteps(portal.client(), f.farmer.email, password)).next_step).toBe('second_factor');

    const reset = await f.userMgrA.client.delete(`/api/members/${f.farmer.memberId}/second-factors`);
    expect(reset.status, reset.text).toBe(204);
    expect((await passwordSteps(portal.client(), f.farmer.email, password)).next_step ?? null).toBeNull();
    const { rows } = await portal.services.db.query<{ actor_user_id: string; target_id: string }>(
      "SELECT actor_user_id, target_id FROM audit_log WHERE action = 'member.second_factors.reset'",
    );
    expect(rows).toEqual([{ actor_user_id: f.userMgrA.userId, target_id: f.farmer.memberId }]);
    const mail = await portal.smtp.waitFor(f.farmer.email, (m) => m.subject.includes('reset'));
    expect(mail.subject).toBe('The second factors of your Partner Portal account were reset');
  });

  it('follows the authorization of changing rights: userManagers of the subtree only, never oneself', async () => {
    const target = `/api/members/${f.farmer.memberId}/second-factors`;
    expect((await f.plainA.client.delete(target)).status).toBe(403);
    expect((await f.orgMgrA.client.delete(target)).status).toBe(403); // organizationManager without userManager
    expect((await f.mgrB.client.delete(target)).status).toBe(403); // manager of a sibling branch
    expect((await f.mgrNorth.client.delete(`/api/members/${f.userMgrA.memberId}/second-factors`)).status).toBe(403); // above the actor
    expect((await f.userMgrA.client.delete(`/api/members/${f.userMgrA.memberId}/second-factors`)).status).toBe(403); // oneself
    expect((await f.userMgrA.client.delete('/api/members/00000000-0000-4000-8000-000000000000/second-factors')).status).toBe(404);
    expect((await f.userMgrA.client.delete('/api/members/not-a-uuid/second-factors')).status).toBe(400);
    expect((await portal.client().delete(target)).status).toBe(401);
    expect((await f.mgrNorth.client.delete(target)).status).toBe(204);
  });
});
