import { registerFeatureLocales, type LocaleLoaders } from '@/lib/i18n';

/** This feature's translations: English (the fallback) and the interface language, then each language switched to. */
let ready: Promise<void> | null = null;

const loaders: LocaleLoaders = {
  'en-GB': () => import('../locales/en-GB.json'),
  nl: () => import('../locales/nl.json'),
  de: () => import('../locales/de.json'),
  fr: () => import('../locales/fr.json'),
  es: () => import('../locales/es.json'),
  'pt-BR': () => import('../locales/pt-BR.json'),
};

export function accountLocales(): Promise<void> {
  ready ??= registerFeatureLocales(loaders);
  return ready;
}
