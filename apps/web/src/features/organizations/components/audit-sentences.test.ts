import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import i18next, { type TFunction } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_ACTIONS, emptyRights, type AuditEntry } from '@partner-portal/contracts';
import { auditWords } from './audit-sentences';

const load = (path: string) => JSON.parse(readFileSync(fileURLToPath(new URL(path, import.meta.url)), 'utf8')) as Record<string, unknown>;

async function translator(language: string): Promise<TFunction> {
  const instance = i18next.createInstance();
  await instance.init({
    lng: language,
    interpolation: { escapeValue: false },
    resources: {
      [language]: {
        translation: {
          ...load(`../../../locales/${language}.json`),
          ...load(`../locales/${language}.json`),
          ...load(`../locales/administration/${language}.json`),
        },
      },
    },
  });
  return instance.t;
}

const entry = (action: string, before: unknown, after: unknown, names: Partial<AuditEntry> = {}): AuditEntry => ({
  id: '1',
  occurred_at: '2026-11-26T10:00:00.000Z',
  actor_user_id: 'u1',
  actor_email: 'klaus@farmtech.example',
  organization_id: 'o1',
  organization_path: 'nedap/farmtech-bayern',
  action,
  target_type: 'member',
  target_id: 'm1',
  before,
  after,
  request_id: null,
  actor_name: 'Klaus Müller',
  subject_name: null,
  subject_email: null,
  organization_name: 'Farmtech Bayern',
  ...names,
});

const context = { organization: 'Farmtech Bayern', actionLabel: (action: string) => `«${action}»` };
const rightsWith = (set: (r: ReturnType<typeof emptyRights>) => void) => {
  const r = emptyRights();
  set(r);
  return r;
};

let en: TFunction;
let de: TFunction;
let pt: TFunction;
beforeAll(async () => {
  [en, de, pt] = await Promise.all([translator('en-GB'), translator('de'), translator('pt-BR')]);
});

describe('auditWords', () => {
  it('says who removed whom, by name, in the interface language, without the rights the member held', () => {
    const removed = entry(
      'member.remove',
      {
        email_address: 'julia@farmtech.example',
        user_id: 'u2',
        rights: rightsWith((r) => (r.academy.user_access = true)),
      },
      null,
    );
    expect(auditWords({ ...removed, subject_name: 'Julia Weber' }, de, context)).toEqual({
      sentence: 'Klaus Müller hat Julia Weber entfernt (Farmtech Bayern)',
      changes: [],
    });
    // a removed member's name is gone: their address
    expect(auditWords(removed, en, context).sentence).toBe('Klaus Müller removed julia@farmtech.example (Farmtech Bayern)');
  });

  it('lists the rights given and taken away by application and right names, only what changed', () => {
    const before = rightsWith((r) => {
      r.academy.user_access = true;
      r.loyalty.user_access = true;
    });
    const after = rightsWith((r) => {
      r.loyalty.user_access = true;
      r.partner_portal.user_user_manager = true;
    });
    const words = auditWords(
      entry('member.rights.update', { email_address: 'j@x.example', rights: before }, { rights: after }),
      en,
      context,
    );
    expect(words.sentence).toBe('Klaus Müller changed the rights of j@x.example (Farmtech Bayern)');
    expect(words.changes).toEqual([
      { kind: 'added', text: 'Partner Portal: Manage users' },
      { kind: 'removed', text: 'Academy: Access' },
    ]);
  });

  it('reads a bulk invitation, a revoked invitation and a refusal as sentences (pt-BR)', () => {
    const bulk = auditWords(entry('invitation.bulk', null, { total: 5, sent: 4, refused: 1, rights: null }), pt, context);
    expect(bulk.sentence).toBe('Klaus Müller convidou 4 pessoas de um arquivo para Farmtech Bayern');
    expect(bulk.changes).toEqual([{ kind: 'note', text: '1 linha do arquivo recusada' }]);
    const revoked = entry('invitation.revoke', { state: 'PENDING', email_address: 'ana@x.example' }, { state: 'REVOKED' });
    expect(auditWords(revoked, pt, context)).toEqual({
      sentence: 'Klaus Müller revogou o convite de ana@x.example (Farmtech Bayern)',
      changes: [],
    });
    const refused = entry(
      'member.remove.refused',
      { email_address: 'ana@x.example' },
      { refused: 'cannot_manage_member_with_more_rights', rights: ['academy.user_access'], attempted: null },
    );
    const words = auditWords(refused, pt, context);
    expect(words.sentence).toContain('Klaus Müller');
    expect(words.sentence).toContain('«member.remove»');
    expect(words.changes).toHaveLength(1);
    expect(words.changes[0]!.text).not.toMatch(/cannot_manage|academy\./);
  });

  it('gives every action the server records a sentence of its own, and an unknown one a generic sentence', () => {
    const generic = auditWords(entry('something.new', null, null), en, context).sentence;
    expect(generic).toBe('Klaus Müller: «something.new» (Farmtech Bayern)');
    for (const action of AUDIT_ACTIONS) {
      const words = auditWords(entry(action, { name: 'Old' }, { name: 'New' }), en, context);
      expect(words.sentence, action).not.toBe(
        auditWords(entry('something.new', null, null), en, { ...context, actionLabel: () => action }).sentence,
      );
      expect(words.sentence, action).not.toMatch(/auditWords|\{\{|_/);
    }
  });

  it('names the apps, e-mail domains and second factors that changed, never the raw fields', () => {
    const apps = auditWords(
      entry(
        'organization.apps.update',
        { apps: [{ client_id: 'academy', available_for_sub_organizations: true }] },
        { apps: [], descendant_assignments_removed: 2 },
      ),
      en,
      context,
    );
    expect(apps.changes.map((c) => c.text).join(' ')).not.toMatch(/client_id|descendant/);
    const domains = auditWords(
      entry(
        'organization.allowed_email_domains.update',
        { allowed_email_domains: ['a.example'] },
        { allowed_email_domains: ['b.example'] },
      ),
      de,
      context,
    );
    expect(domains.changes).toEqual([
      { kind: 'added', text: '@b.example' },
      { kind: 'removed', text: '@a.example' },
    ]);
    const reset = auditWords(
      entry('member.second_factors.reset', { email_address: 'j@x.example', totp: true, passkeys: 2 }, {}),
      de,
      context,
    );
    expect(reset.changes).toEqual([
      { kind: 'removed', text: 'Authenticator-App' },
      { kind: 'removed', text: '2 Passkeys' },
    ]);
  });

  it("reads the dealers' own identity: domains, sign-in connections and access requests", () => {
    const claim = entry('domain.claim', null, { domain: 'dealer.example' });
    expect(auditWords(claim, en, context)).toEqual({
      sentence: 'Klaus Müller claimed the domain dealer.example for Farmtech Bayern',
      changes: [],
    });
    const lost = entry(
      'domain.unverified',
      { domain: 'dealer.example', verified: true },
      { domain: 'dealer.example', verified: false },
      {
        actor_user_id: null,
        actor_email: null,
        actor_name: null,
      },
    );
    expect(auditWords(lost, de, context).sentence).toBe(
      'Die Domain dealer.example von Farmtech Bayern ist nicht mehr verifiziert: Der TXT-Eintrag wurde nicht gefunden',
    );
    const changed = auditWords(
      entry(
        'sso_connection.update',
        { name: 'Contoso Entra ID', domains: ['a.example'], just_in_time: false },
        { name: 'Contoso Entra ID', domains: ['a.example', 'b.example'], just_in_time: true },
      ),
      en,
      context,
    );
    expect(changed).toEqual({
      sentence: 'Klaus Müller changed the sign-in connection Contoso Entra ID (Farmtech Bayern)',
      changes: [
        { kind: 'added', text: '@b.example' },
        { kind: 'added', text: 'Accounts created at the first sign-in' },
      ],
    });
    const removed = auditWords(
      entry(
        'sso_connection.delete',
        { name: 'Contoso Entra ID', issuer: 'https://idp.example', domains: ['a.example'], just_in_time: false },
        { unlinked_accounts: 3 },
      ),
      de,
      context,
    );
    expect(removed.sentence).toBe('Klaus Müller hat die Anmeldeverbindung Contoso Entra ID gelöscht (Farmtech Bayern)');
    expect(removed.changes).toEqual([
      { kind: 'removed', text: '@a.example' },
      { kind: 'note', text: '3 Konten getrennt: Sie melden sich nach „Passwort vergessen?“ wieder mit einem Passwort an' },
    ]);
    const secret = auditWords(
      entry(
        'sso_connection.update',
        { name: 'C', issuer: 'https://old.example', domains: [], just_in_time: false },
        { name: 'C', issuer: 'https://new.example', domains: [], just_in_time: false, client_secret_changed: true },
      ),
      en,
      context,
    );
    expect(secret.changes).toEqual([
      { kind: 'added', text: 'Issuer URL https://new.example' },
      { kind: 'removed', text: 'Issuer URL https://old.example' },
      { kind: 'note', text: 'New client secret' },
    ]);
    const joined = entry('sso_connection.member_joined', null, { connection_name: 'Contoso Entra ID' }, { subject_name: 'Ana Souza' });
    expect(auditWords(joined, pt, context).sentence).toBe('Ana Souza entrou em Farmtech Bayern no primeiro login por Contoso Entra ID');
    const asked = entry(
      'access_request.create',
      null,
      { email_address: 'jan@dealer.example', first_name: 'Jan', last_name: 'Jansen' },
      {
        actor_user_id: null,
        actor_email: null,
        actor_name: null,
      },
    );
    expect(auditWords(asked, en, context).sentence).toBe('Jan Jansen asked for access to Farmtech Bayern');
    const machine = auditWords(
      entry('service_account.create', null, { name: 'Herd sync', client_id: 'sa.1', user_manager: true, organization_manager: false }),
      en,
      context,
    );
    expect(machine).toEqual({
      sentence: 'Klaus Müller created the service account Herd sync for Farmtech Bayern',
      changes: [{ kind: 'added', text: 'Partner Portal: Manage users' }],
    });
    const declined = entry('access_request.decline', { email_address: 'jan@dealer.example' }, { state: 'DECLINED' });
    expect(auditWords(declined, de, context).sentence).toBe(
      'Klaus Müller hat die Zugangsanfrage von jan@dealer.example abgelehnt (Farmtech Bayern)',
    );
  });
});
