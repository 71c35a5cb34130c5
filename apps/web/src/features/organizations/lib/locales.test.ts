import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { APP_SECTIONS, INTERFACE_LANGUAGES } from '@partner-portal/contracts';

/** Every locale file of the two features and of the manage page's sections has the same keys, none empty (every user-visible text in the six interface languages). */
const keys = (value: unknown, prefix = ''): string[] =>
  Object.entries(value as Record<string, unknown>).flatMap(([k, v]) =>
    typeof v === 'object' && v ? keys(v, `${prefix}${k}.`) : [`${prefix}${k}`],
  );
const load = (folder: string, language: string) =>
  JSON.parse(readFileSync(fileURLToPath(new URL(`../../${folder}/${language}.json`, import.meta.url)), 'utf8')) as Record<string, unknown>;

describe.each([
  'organizations/locales',
  'invitations/locales',
  'organizations/locales/administration',
  'identity/locales',
  'identity/locales/setup-links',
  'integrations/locales',
])('the %s', (feature) => {
  it('exist for the six interface languages with identical, non-empty keys', () => {
    const files = readdirSync(fileURLToPath(new URL(`../../${feature}/`, import.meta.url)))
      .filter((f) => f.endsWith('.json'))
      .map((f) => f.replace('.json', ''));
    expect(files.sort()).toEqual([...INTERFACE_LANGUAGES].sort());
    // plural forms (key_one, key_many, key_other) differ by language: compare their base keys
    const base = (list: string[]) => [...new Set(list.map((k) => k.replace(/_(zero|one|two|few|many|other)$/, '')))].sort();
    const reference = base(keys(load(feature, 'en-GB')));
    for (const language of INTERFACE_LANGUAGES) {
      const bundle = load(feature, language);
      expect(base(keys(bundle))).toEqual(reference);
      for (const key of keys(bundle))
        expect(key.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown>)[k], bundle)).not.toBe('');
    }
  });
});

describe('the rights labels', () => {
  it('name every section and every right', () => {
    const bundle = load('organizations/locales', 'en-GB') as { rights: Record<string, Record<string, string>> };
    for (const section of APP_SECTIONS) {
      expect(bundle.rights[section.section]?.title).toBeTruthy();
      for (const right of section.rights)
        expect(bundle.rights[section.section]?.[right.name] ?? bundle.rights.common?.[right.name]).toBeTruthy();
    }
  });
});
