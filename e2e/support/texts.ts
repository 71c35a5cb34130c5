import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The web app's texts, from its locale files (apps/web/src/locales and each feature's locales), so a
 * test can find buttons and messages in any language.
 */
const WEB_SOURCE = fileURLToPath(new URL('../../apps/web/src/', import.meta.url));

const FOLDERS = [
  'locales',
  ...readdirSync(`${WEB_SOURCE}features`).map((feature) => `features/${feature}/locales`),
  'features/organizations/locales/administration',
];

function textsOf(folder: string, language: string): Record<string, unknown> {
  try {
    return JSON.parse(readFileSync(`${WEB_SOURCE}${folder}/${language}.json`, 'utf8')) as Record<string, unknown>;
  } catch {
    return {}; // not every feature has every folder
  }
}

/** The text of a key in a language (its {{placeholders}} left in); a dotted key ("integrations.title") reads nested texts. */
export function webText(language: string, key: string): string {
  for (const folder of FOLDERS) {
    const texts = textsOf(folder, language);
    const text =
      key in texts ? texts[key] : key.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], texts);
    if (typeof text === 'string') return text;
  }
  throw new Error(`no text ${key} in ${language}`);
}
