import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPortalWith, type TestPortal } from '../support/portal.js';
import { until } from '../support/wait.js';
import { buildFixture, createOrg, type Fixture } from '../organizations/fixtures.js';

let portal: TestPortal;
let f: Fixture;

const EXTERNAL_IDP = {
  EXTERNAL_IDP_ISSUER: 'https://idp.example.com',
  EXTERNAL_IDP_CLIENT_ID: 'portal',
  EXTERNAL_IDP_EMAIL_DOMAINS: 'corp.example',
};
beforeAll(async () => ({ portal, built: f } = await startPortalWith(buildFixture, EXTERNAL_IDP)));
afterAll(() => portal?.close());

const STRONG = 'Str0ng-Passw0rd!';

async function invite(client = f.userMgrA.client, orgId = f.tree.north.id, body: Record<string, unknown> = {}) {
  return client.post(`/api/organizations/${orgId}/invitations`, body);
}

/** The invitation link of the last e-mail to an address: { id, code, url }. */
async function linkFor(email: string, nth = 0) {
  const mail = await portal.smtp.waitFor(email, () => true);
  const all = portal.smtp.to(email);
  const chosen = all[all.length - 1 - nth] ?? mail;
  const url = new URL(chosen.links.find((l) => l.includes('/invitation'))!);
  return { url, id: url.pathname.split('/').pop()!, code: url.searchParams.get('code')!, mail: chosen };
}

const accept = (id: string, body: Record<string, unknown>) =>
  portal.client().put(`/api/invitations/${id}/accept`, {
    first_name: ' Ann ',
    last_name: ' Smith ',
    language_code: 'nl',
    accept_agreement: true,
    opt_in_for_newsletter: true,
    ...body,
  });

describe('POST /api/organizations/{id}/invitations', () => {
  it('creates a pending invitation and e-mails a link in the inviter’s language', async () => {
    await portal.services.db.query("UPDATE users SET language_code = 'de' WHERE id = $1", [f.userMgrA.userId]);
    const f2 = await portal.sessionFor(f.userMgrA.userId);
    const res = await invite(f2, f.tree.north.id, { email_address: ' New.Person@Example.com ' });
    expect(res.status).toBe(201);
    expect(res.body.organizationId).toBe(f.tree.north.id);
    expect(res.body.invitation).toMatchObject({
      email_address: 'New.Person@Example.com',
      invitation_state: 'PENDING',
      language_code: 'de',
      is_external_identity_provider: false,
      organization_id: f.tree.north.id,
    });
    const { url, id, code, mail } = await linkFor('new.person@example.com');
    expect(id).toBe(res.body.invitation.invitation_id);
    expect(url.origin + url.pathname).toBe(`${portal.url}/invitation/${id}`);
    expect(code.length).toBeGreaterThanOrEqual(43);
    expect(mail.subject).toMatch(/eingeladen|Einladung/i);
    const stored = await portal.services.db.query<{ code_hash: string }>('SELECT code_hash FROM invitations WHERE id = $1', [id]);
    expect(stored.rows[0]!.code_hash).not.toContain(code);
    const org = await f.userMgrA.client.get(`/api/organizations/${f.tree.north.id}`);
    expect(org.body.pending_invitations.map((i: any) => i.invitation_id)).toContain(id);
    const tree = await f.userMgrA.client.get('/api/organizations/tree');
    expect(tree.body.children[0].pending_invitations).toBe(1);
  });

  it('uses the requested language and marks external-identity domains', async () => {
    const res = await invite(f.userMgrA.client, f.tree.north.id, { email_address: 'boss@corp.example', language_code: 'fr' });
    expect(res.status).toBe(201);
    expect(res.body.invitation).toMatchObject({ language_code: 'fr', is_external_identity_provider: true });
    const { url } = await linkFor('boss@corp.example');
    expect(url.pathname).toBe(`/invitation-external-identity/${res.body.invitation.invitation_id}`);
  });

  it('requires a valid e-mail address (400)', async () => {
    const empty = await invite(f.userMgrA.client, f.tree.north.id, { email_address: '' });
    expect(empty.status).toBe(400);
    expect(empty.body.errors.email_address[0].translation_key).toBe('fill_in_email');
    expect((await invite(f.userMgrA.client, f.tree.north.id, { email_address: 'not-an-address' })).status).toBe(400);
    expect((await invite(f.userMgrA.client, f.tree.north.id, {})).status).toBe(400);
    expect((await invite(f.userMgrA.client, f.tree.north.id, { email_address: 'x@example.com', language_code: 'xx' })).status).toBe(400);
  });

  it('applies the allowed-domain rule, listing the @domains', async () => {
    const org = await createOrg(portal, f.tree.a, 'Domain Limited');
    expect(
      (
        await f.admin.client.put(`/api/organizations/${org.id}/allowed-email-domains`, {
          allowed_email_domains: ['dealer.example', 'farm.example'],
        })
      ).status,
    ).toBe(204);
    const res = await invite(f.userMgrA.client, org.id, { email_address: 'someone@elsewhere.example' });
    expect(res.status).toBe(409);
    expect(res.body.i18NTranslationKey).toBe('not_allowed_to_invite_other_domains');
    expect(res.body.messages).toEqual(['@dealer.example', '@farm.example']);
    expect(res.body.params.domains).toBe('@dealer.example, @farm.example');
    expect((await invite(f.userMgrA.client, org.id, { email_address: 'someone@Farm.example' })).status).toBe(201);
  });

  it('refuses a second pending invitation and existing users (409)', async () => {
    expect((await invite(f.userMgrA.client, f.tree.south.id, { email_address: 'twice@example.com' })).status).toBe(201);
    const again = await invite(f.fullA.client, f.tree.farm.id, { email_address: 'TWICE@example.com' });
    expect(again.status).toBe(409);
    expect(again.body.i18NTranslationKey).toBe('invitation_already_pending');
    const member = await invite(f.userMgrA.client, f.tree.south.id, { email_address: f.farmer.email });
    expect(member.status).toBe(409);
    expect(member.body.i18NTranslationKey).toBe('email_address_already_exists');
  });

  it('validates optional rights like the rights editor (409 invalid_rights)', async () => {
    const bad = await invite(f.userMgrA.client, f.tree.south.id, {
      email_address: 'r1@example.com',
      rights: { partner_portal: { nedap_user_full_permission: true } },
    });
    expect(bad.status).toBe(409);
    expect(bad.body.i18NTranslationKey).toBe('invalid_rights');
    expect(bad.body.messages).toContain('partner_portal.nedap_user_full_permission');
    const malformed = await invite(f.userMgrA.client, f.tree.south.id, {
      email_address: 'r1@example.com',
      rights: { partner_portal: { unknown_box: true } },
    });
    expect(malformed.status).toBe(400);
  });

  it('is refused to non-userManagers, outside the subtree, for unknown organizations and anonymously', async () => {
    expect((await invite(f.orgMgrA.client, f.tree.north.id, { email_address: 'x1@example.com' })).status).toBe(403);
    expect((await invite(f.plainA.client, f.tree.north.id, { email_address: 'x1@example.com' })).status).toBe(403);
    expect((await invite(f.mgrB.client, f.tree.north.id, { email_address: 'x1@example.com' })).status).toBe(403);
    expect((await invite(f.mgrNorth.client, f.tree.a.id, { email_address: 'x1@example.com' })).status).toBe(403);
    expect((await invite(f.userMgrA.client, '00000000-0000-4000-8000-000000000000', { email_address: 'x1@example.com' })).status).toBe(404);
    expect((await invite(portal.client(), f.tree.north.id, { email_address: 'x1@example.com' })).status).toBe(401);
  });
});

describe('GET /api/invitations/{id}', () => {
  it('reads an invitation with the link’s code, without login', async () => {
    await invite(f.userMgrA.client, f.tree.south.id, { email_address: 'reader@example.com', language_code: 'es' });
    const { id, code } = await linkFor('reader@example.com');
    const res = await portal.client().get(`/api/invitations/${id}?code=${encodeURIComponent(code)}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      invitation_id: id,
      email_address: 'reader@example.com',
      invitation_state: 'PENDING',
      language_code: 'es',
      organization_name: 'South',
      is_external_identity_provider: false,
    });
    expect(res.body.code_hash).toBeUndefined();
  });

  it('answers with the id alone, as the documented call sends it; 404 unknown_invitation for a wrong or old code and an unknown id', async () => {
    await invite(f.userMgrA.client, f.tree.south.id, { email_address: 'reader2@example.com' });
    const { id } = await linkFor('reader2@example.com');
    const plain = await portal.client().get(`/api/invitations/${id}`);
    expect(plain.status).toBe(200);
    expect(plain.body).toMatchObject({ invitation_id: id, email_address: 'reader2@example.com', invitation_state: 'PENDING' });
    for (const path of [
      `/api/invitations/${id}?code=wrong`,
      `/api/invitations/${id}?code=`,
      '/api/invitations/00000000-0000-4000-8000-000000000000',
      '/api/invitations/00000000-0000-4000-8000-000000000000?code=x',
    ]) {
      const res = await portal.client().get(path);
      expect(res.status, path).toBe(404);
      expect(res.body.i18NTranslationKey).toBe('unknown_invitation');
    }
    expect((await portal.client().get(`/api/invitations/${id}`, { csrf: false })).status).toBe(403);
  });
});

describe('resend and revoke', () => {
  it('resend issues a new code (the old link stops working) and updates last_sent_at', async () => {
    const created = await invite(f.userMgrA.client, f.tree.south.id, { email_address: 'resend@example.com' });
    const first = await linkFor('resend@example.com');
    // the database's clock a millisecond (the answers' precision) past the first sending, so that the resend's last_sent_at is later
    const sentAt = created.body.invitation.last_sent_at as string;
    await until(
      'the clock moved on',
      async () =>
        (
          await portal.services.db.query<{ later: boolean }>("SELECT date_trunc('milliseconds', now()) > $1::timestamptz AS later", [
            sentAt,
          ])
        ).rows[0]!.later,
      5_000,
      5,
    );
    const res = await f.userMgrA.client.put(`/api/invitations/${first.id}/resend`);
    expect(res.status).toBe(204);
    await portal.smtp.waitFor('resend@example.com', () => portal.smtp.to('resend@example.com').length >= 2);
    const second = await linkFor('resend@example.com');
    expect(second.code).not.toBe(first.code);
    expect((await portal.client().get(`/api/invitations/${first.id}?code=${first.code}`)).status).toBe(404);
    const read = await portal.client().get(`/api/invitations/${first.id}?code=${second.code}`);
    expect(read.status).toBe(200);
    expect(new Date(read.body.last_sent_at).getTime()).toBeGreaterThan(new Date(created.body.invitation.last_sent_at).getTime());
  });

  it('revoke makes the invitation REVOKED; only pending invitations can be resent or revoked (409)', async () => {
    await invite(f.userMgrA.client, f.tree.south.id, { email_address: 'revoke@example.com' });
    const { id, code } = await linkFor('revoke@example.com');
    expect((await f.mgrB.client.put(`/api/invitations/${id}/revoke`)).status).toBe(403);
    expect((await f.orgMgrA.client.put(`/api/invitations/${id}/revoke`)).status).toBe(403);
    expect((await f.userMgrA.client.put(`/api/invitations/${id}/revoke`)).status).toBe(204);
    expect((await portal.client().get(`/api/invitations/${id}?code=${code}`)).body.invitation_state).toBe('REVOKED');
    const again = await f.userMgrA.client.put(`/api/invitations/${id}/revoke`);
    expect(again.status).toBe(409);
    expect(again.body.i18NTranslationKey).toBe('only_pending_invitations_can_be_revoked');
    const resend = await f.userMgrA.client.put(`/api/invitations/${id}/resend`);
    expect(resend.status).toBe(409);
    expect(resend.body.i18NTranslationKey).toBe('only_pending_invitations_can_be_resent');
    const acc = await accept(id, { invitation_code: code, password: STRONG, password_confirmation: STRONG });
    expect(acc.status).toBe(409);
    expect(acc.body.i18NTranslationKey).toBe('only_pending_invitations_can_be_accepted');
    expect((await f.userMgrA.client.put('/api/invitations/00000000-0000-4000-8000-000000000000/revoke')).status).toBe(404);
    expect((await portal.client().put(`/api/invitations/${id}/resend`)).status).toBe(401);
  });
});

describe('PUT /api/invitations/{id}/accept', () => {
  it('invites and registers in pt-BR: the e-mail in Portuguese, its link carrying the language', async () => {
    const created = await invite(f.userMgrA.client, f.tree.north.id, { email_address: 'ana@example.com', language_code: 'pt-BR' });
    expect(created.status).toBe(201);
    expect(created.body.invitation.language_code).toBe('pt-BR');
    const { id, code, url, mail } = await linkFor('ana@example.com');
    expect(url.searchParams.get('lang')).toBe('pt-BR');
    expect(mail.subject).toContain('Você foi convidado');
    expect((await portal.client().get(`/api/invitations/${id}?code=${code}`)).body.language_code).toBe('pt-BR');
    const res = await accept(id, { invitation_code: code, password: STRONG, password_confirmation: STRONG, language_code: 'pt-BR' });
    expect(res.status).toBe(204);
    const user = await portal.services.db.query<{ language_code: string }>(
      "SELECT language_code FROM users WHERE lower(email) = 'ana@example.com'",
    );
    expect(user.rows[0]!.language_code).toBe('pt-BR');
  });

  it('registers a native account with the invitation’s rights (argon2id password, names trimmed, language, newsletter, agreement)', async () => {
    // the inviter holds every right it hands out (docs/security.md, "Delegated administration")
    const created = await invite(f.admin.client, f.tree.farm.id, {
      email_address: 'native@example.com',
      rights: { loyalty: { user_request_manager: true }, partner_portal: { user_user_manager: true } },
    });
    expect(created.status).toBe(201);
    const { id, code } = await linkFor('native@example.com');
    const res = await accept(id, { invitation_code: code, password: STRONG, password_confirmation: STRONG });
    expect(res.status).toBe(204);
    const user = await portal.services.db.query<any>(
      `SELECT u.first_name, u.last_name, u.language_code, u.newsletter_opt_in, u.password_hash, u.external_idp, u.terms_accepted_at, m.organization_id, m.organization_path, m.rights
       FROM users u JOIN memberships m ON m.user_id = u.id WHERE lower(u.email) = 'native@example.com'`,
    );
    const row = user.rows[0];
    expect(row).toMatchObject({
      first_name: 'Ann',
      last_name: 'Smith',
      language_code: 'nl',
      newsletter_opt_in: true,
      external_idp: null,
      organization_id: f.tree.farm.id,
      organization_path: f.tree.farm.path,
    });
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    expect(row.terms_accepted_at).toBeTruthy();
    expect(row.rights.loyalty).toMatchObject({ user_request_manager: true, user_access: true });
    expect(row.rights.partner_portal.user_user_manager).toBe(true);
    expect((await portal.client().get(`/api/invitations/${id}?code=${code}`)).body.invitation_state).toBe('ACCEPTED');
    const again = await accept(id, { invitation_code: code, password: STRONG, password_confirmation: STRONG });
    expect(again.status).toBe(409);
    const tree = await f.userMgrA.client.get(`/api/organizations/${f.tree.farm.id}`);
    expect(tree.body.members.map((m: any) => m.email_address)).toContain('native@example.com');
  });

  it('checks the code (404), the password rules, the confirmation, the names and the agreement (400)', async () => {
    await invite(f.userMgrA.client, f.tree.farm.id, { email_address: 'rules@example.com' });
    const { id, code } = await linkFor('rules@example.com');
    const wrong = await accept(id, { invitation_code: 'wrong', password: STRONG, password_confirmation: STRONG });
    expect(wrong.status).toBe(404);
    expect(wrong.body.i18NTranslationKey).toBe('unknown_invitation');
    const weak = await accept(id, { invitation_code: code, password: 'weak', password_confirmation: 'weak' });
    expect(weak.status).toBe(400);
    expect(weak.body.errors.password.map((e: any) => e.translation_key)).toEqual(
      expect.arrayContaining(['password_too_short', 'password_requires_upper', 'password_requires_digit']),
    );
    const mismatch = await accept(id, { invitation_code: code, password: STRONG, password_confirmation: `${STRONG}x` });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.errors.password_confirmation[0].translation_key).toBe('password_error_no_match');
    const missing = await accept(id, { invitation_code: code });
    expect(missing.status).toBe(400);
    const names = await accept(id, { invitation_code: code, password: STRONG, password_confirmation: STRONG, first_name: '  ' });
    expect(names.status).toBe(400);
    expect(names.body.errors.first_name[0].translation_key).toBe('first_name_required');
    const agreement = await accept(id, { invitation_code: code, password: STRONG, password_confirmation: STRONG, accept_agreement: false });
    expect(agreement.status).toBe(400);
    expect(agreement.body.errors.accept_agreement[0].translation_key).toBe('agreement_required');
    const language = await accept(id, { invitation_code: code, password: STRONG, password_confirmation: STRONG, language_code: 'pt' });
    expect(language.status).toBe(400);
    expect((await portal.client().get(`/api/invitations/${id}?code=${code}`)).body.invitation_state).toBe('PENDING');
  });

  it('lets exactly one of two concurrent accepts win', async () => {
    await invite(f.userMgrA.client, f.tree.farm.id, { email_address: 'race@example.com' });
    const { id, code } = await linkFor('race@example.com');
    const body = { invitation_code: code, password: STRONG, password_confirmation: STRONG };
    const [x, y] = await Promise.all([accept(id, body), accept(id, body)]);
    expect([x.status, y.status].sort()).toEqual([204, 409]);
    const n = await portal.services.db.query<{ n: number }>("SELECT count(*)::int AS n FROM users WHERE lower(email) = 'race@example.com'");
    expect(n.rows[0]!.n).toBe(1);
  });

  it('registers an external-identity account without a password, to be linked at the upstream login', async () => {
    await invite(f.userMgrA.client, f.tree.farm.id, { email_address: 'ext@corp.example' });
    const { id, code } = await linkFor('ext@corp.example');
    const res = await accept(id, { invitation_code: code, password: null, password_confirmation: null });
    expect(res.status).toBe(204);
    const u = await portal.services.db.query<any>(
      "SELECT password_hash, external_idp, external_subject FROM users WHERE lower(email) = 'ext@corp.example'",
    );
    expect(u.rows[0]).toEqual({ password_hash: null, external_idp: 'external', external_subject: null });
  });

  it('expires invitations after INVITATION_TTL_HOURS (EXPIRED, not acceptable, may be invited again; resending: members-and-expired-invitations.test.ts)', async () => {
    const created = await invite(f.userMgrA.client, f.tree.farm.id, { email_address: 'late@example.com' });
    const { id, code } = await linkFor('late@example.com');
    await portal.services.db.query("UPDATE invitations SET expires_at = now() - interval '1 minute' WHERE id = $1", [
      created.body.invitation.invitation_id,
    ]);
    expect((await portal.client().get(`/api/invitations/${id}?code=${code}`)).body.invitation_state).toBe('EXPIRED');
    const acc = await accept(id, { invitation_code: code, password: STRONG, password_confirmation: STRONG });
    expect(acc.status).toBe(409);
    const org = await f.userMgrA.client.get(`/api/organizations/${f.tree.farm.id}`);
    expect(org.body.pending_invitations.map((i: any) => i.invitation_id)).not.toContain(id);
    expect((await invite(f.userMgrA.client, f.tree.farm.id, { email_address: 'late@example.com' })).status).toBe(201);
  });
});
