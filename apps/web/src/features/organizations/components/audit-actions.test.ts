import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import i18next, { type TFunction } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_ACTIONS, INTERFACE_LANGUAGES, type AuditEntry } from '@partner-portal/contracts';
import { auditWords } from './audit-sentences';

/**
 * Every action the server writes to the audit log, read from its source (apps/server/src): the
 * string literals of `action: …` in the entries it hands to `audit` (modules/audit/service.ts) and
 * the action argument of the helpers that build such entries (organizationChange, domainChange,
 * webhookChange, change). Each has a sentence of its own and a name in every interface language.
 */
const SERVER_SOURCE = fileURLToPath(new URL('../../../../../server/src/', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** An action's name: lower-case words joined by dots ("webhook.delivery.retry"). */
const ACTION = /'([a-z_]+(?:\.[a-z_]+)+)'/g;

function serverActions(): Set<string> {
  const found = new Set<string>();
  for (const file of sourceFiles(SERVER_SOURCE)) {
    const source = readFileSync(file, 'utf8');
    // action: 'member.provision', action: changed ? 'member.update' : active ? 'member.reactivate' : 'member.deactivate'
    for (const [, expression] of source.matchAll(/\baction:\s*([^,\n]+)/g))
      for (const [, action] of expression!.matchAll(ACTION)) found.add(action!);
    // organizationChange(org, 'organization.update', …), webhookChange(\n org,\n 'webhook.delivery.retry', …)
    for (const [, action] of source.matchAll(
      /\b(?:organizationChange|domainChange|webhookChange|change)\(\s*(?:\{[^}]*\}|[\w.]+),\s*'([^']+)'/g,
    ))
      found.add(action!);
  }
  return found;
}

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

const entry = (action: string): AuditEntry => ({
  id: '1',
  occurred_at: '2026-11-26T10:00:00.000Z',
  actor_user_id: null,
  actor_email: null,
  organization_id: 'o1',
  organization_path: 'nedap/farmtech-bayern',
  action,
  target_type: 'member',
  target_id: 'm1',
  before: { email_address: 'jan@dealer.example', name: 'Old', url: 'https://erp.example/old', event_type: 'member.created' },
  after: { email_address: 'jan@dealer.example', name: 'New', url: 'https://erp.example/new', first_name: 'Jan' },
  request_id: null,
  actor_name: 'SCIM: Entra ID',
  subject_name: 'Jan Jansen',
  subject_email: 'jan@dealer.example',
  organization_name: 'Farmtech Bayern',
});

const actions = serverActions();
let translators: Record<string, TFunction>;
beforeAll(async () => {
  translators = Object.fromEntries(await Promise.all(INTERFACE_LANGUAGES.map(async (l) => [l, await translator(l)] as const)));
});

describe('the actions the server writes to the audit log', () => {
  it('are found in its source, and are those the audit trail offers as a filter', () => {
    // the reading is checked on actions the server is known to write, in each of the ways it writes them
    for (const known of ['member.provision', 'member.deactivate', 'organization.apps.update', 'domain.claim', 'webhook.delivery.retry'])
      expect(actions, known).toContain(known);
    expect([...actions].filter((a) => !(AUDIT_ACTIONS as readonly string[]).includes(a))).toEqual([]);
  });

  it('each read as a sentence of its own, with its name, in every interface language', () => {
    for (const language of INTERFACE_LANGUAGES) {
      const t = translators[language]!;
      for (const action of actions) {
        const label = t(`adm_action_${action.replace(/\./g, '_')}`, { defaultValue: '' });
        expect(label, `${language}: the name of ${action}`).not.toBe('');
        const words = auditWords(entry(action), t, { organization: 'Farmtech Bayern', actionLabel: () => '«generic»' });
        expect(words.sentence, `${language}: ${action}`).not.toContain('«generic»');
        expect(words.sentence, `${language}: ${action}`).not.toContain(action);
        expect(words.sentence, `${language}: ${action}`).not.toMatch(/auditWords|\{\{|_/);
      }
    }
  });

  it('name the member a directory provisioned, changed, deactivated or reactivated (SCIM)', () => {
    for (const language of INTERFACE_LANGUAGES)
      for (const action of ['member.provision', 'member.update', 'member.deactivate', 'member.reactivate']) {
        const sentence = auditWords(entry(action), translators[language]!, {
          organization: 'Farmtech Bayern',
          actionLabel: (a) => a,
        }).sentence;
        expect(sentence, `${language}: ${action}`).toContain('Jan Jansen');
        expect(sentence, `${language}: ${action}`).toContain('SCIM: Entra ID');
      }
    // without a name, the address the entry keeps
    const provisioned = {
      ...entry('member.provision'),
      subject_name: null,
      subject_email: null,
      before: null,
      after: { email_address: 'piet@dealer.example' },
    };
    expect(auditWords(provisioned, translators['en-GB']!, { organization: 'Farmtech Bayern', actionLabel: (a) => a }).sentence).toBe(
      'SCIM: Entra ID created the account of piet@dealer.example in Farmtech Bayern from the directory',
    );
  });
});
