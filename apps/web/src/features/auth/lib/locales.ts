import { featureLocales } from '@/lib/i18n';

/**
 * The translations of the auth feature's pages beyond the login (the access request), every
 * language at once: visitors switch the language on these pages, and the texts follow at once.
 * The login page's own texts are in the main locales (src/locales), which come with the entry.
 */
export const authLocales = featureLocales(import.meta.glob('../locales/*.json'), { allLanguages: true });
