import { featureLocales } from '@/lib/i18n';

/**
 * This feature's translations (lib/i18n.ts, featureLocales), every language at once: visitors
 * switch the language on the invitation page, and its texts must follow at once.
 */
export const invitationLocales = featureLocales(import.meta.glob('../locales/*.json'), { allLanguages: true });
