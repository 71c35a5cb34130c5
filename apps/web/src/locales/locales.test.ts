import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ERRORS, INTERFACE_LANGUAGES } from '@partner-portal/contracts';

/**
 * Every locale folder of the web app (src/locales and each features/<name>/locales) has the six
 * interface languages with exactly the same keys, and no empty text. The main locales translate
 * every error key the server may send.
 */
const SRC = join(dirname(fileURLToPath(import.meta.url)), '..');

function localeFolders(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (!statSync(path).isDirectory()) continue;
    if (entry === 'locales') found.push(path);
    else if (entry !== 'node_modules') found.push(...localeFolders(path));
  }
  return found;
}

function flatten(value: unknown, prefix = ''): Record<string, unknown> {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    return Object.assign({}, ...Object.entries(value).map(([k, v]) => flatten(v, prefix ? `${prefix}.${k}` : k))) as Record<
      string,
      unknown
    >;
  }
  return { [prefix]: value };
}

const read = (folder: string, language: string) => flatten(JSON.parse(readFileSync(join(folder, `${language}.json`), 'utf8')));

/** i18next plural keys (`key_one`, `key_other`, …): each language has the forms its plural rules use. */
const PLURAL = /_(zero|one|two|few|many|other)$/;
const pluralBases = (messages: Record<string, unknown>) =>
  new Set(
    Object.keys(messages)
      .filter((k) => PLURAL.test(k))
      .map((k) => k.replace(PLURAL, '')),
  );
/** The keys with plural forms folded into one `base_#` (its `_other` text), so languages with different forms compare equal. */
const folded = (messages: Record<string, unknown>) => {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(messages)) if (!PLURAL.test(k)) out[k] = v;
  for (const base of pluralBases(messages)) out[`${base}_#`] = messages[`${base}_other`];
  return out;
};
const folders = localeFolders(SRC);

describe('locale parity', () => {
  it('finds the main locale folder', () => {
    expect(folders.map((f) => relative(SRC, f))).toContain('locales');
  });

  for (const folder of folders) {
    const name = relative(SRC, folder);
    it(`${name}: all six languages with the same keys and no empty texts`, () => {
      const files = readdirSync(folder).filter((f) => f.endsWith('.json'));
      expect(files.sort()).toEqual(INTERFACE_LANGUAGES.map((l) => `${l}.json`).sort());
      const reference = folded(read(folder, 'en-GB'));
      const keys = Object.keys(reference).sort();
      for (const language of INTERFACE_LANGUAGES) {
        const raw = read(folder, language);
        // every counted text has exactly the plural forms this language's rules use
        for (const base of pluralBases(raw)) {
          const forms = Object.keys(raw)
            .filter((k) => k.replace(PLURAL, '') === base && PLURAL.test(k))
            .map((k) => PLURAL.exec(k)![1])
            .sort();
          expect({ language, base, forms }).toEqual({
            language,
            base,
            forms: [...new Intl.PluralRules(language).resolvedOptions().pluralCategories].sort(),
          });
        }
        const messages = folded(raw);
        const missing = keys.filter((k) => !(k in messages));
        const extra = Object.keys(messages).filter((k) => !(k in reference));
        expect({ language, missing, extra }).toEqual({ language, missing: [], extra: [] });
        const empty = Object.entries(messages).filter(([, v]) => typeof v !== 'string' || v.trim() === '');
        expect({ language, empty }).toEqual({ language, empty: [] });
        // the same {{placeholders}} in every language
        for (const key of keys) {
          const placeholders = (v: unknown) => [...String(v).matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();
          expect({ language, key, p: placeholders(messages[key]) }).toEqual({ language, key, p: placeholders(reference[key]) });
        }
      }
    });
  }

  it('speaks to the reader as "je" in Dutch, never "u" or "uw"', () => {
    const formal = /(^|[^\p{L}{])(u|uw|U|Uw)(?=$|[^\p{L}}])/u;
    for (const folder of folders) {
      const found = Object.entries(read(folder, 'nl')).filter(([, v]) => formal.test(String(v)));
      expect({ folder: relative(SRC, folder), found }).toEqual({ folder: relative(SRC, folder), found: [] });
    }
  });

  it('translates every server error key in every language', () => {
    const main = join(SRC, 'locales');
    for (const language of INTERFACE_LANGUAGES) {
      const messages = read(main, language);
      const missing = Object.keys(ERRORS).filter((k) => !(k in messages));
      expect({ language, missing }).toEqual({ language, missing: [] });
    }
  });
});
