import { INTERFACE_LANGUAGES } from '@partner-portal/contracts';
import { i18n, registerFeatureLocales, type LocaleLoaders } from '@/lib/i18n';

/** This feature's translations, loaded once with its code (all six interface languages). */
let ready: Promise<void> | null = null;

const loaders: LocaleLoaders = {
  'en-GB': () => import('../locales/en-GB.json'),
  nl: () => import('../locales/nl.json'),
  de: () => import('../locales/de.json'),
  fr: () => import('../locales/fr.json'),
  es: () => import('../locales/es.json'),
  'pt-BR': () => import('../locales/pt-BR.json'),
};

/**
 * Registers the bundles, then loads the other languages too (a few kB each), so that switching
 * the interface language shows this feature's texts at once rather than after the next render.
 */
export function accountLocales(): Promise<void> {
  ready ??= registerFeatureLocales(loaders).then(async () => {
    await Promise.all(
      INTERFACE_LANGUAGES.map(async (language) => {
        const resources = await loaders[language]();
        i18n.addResourceBundle(language, 'translation', resources.default, true, false);
      }),
    );
  });
  return ready;
}
