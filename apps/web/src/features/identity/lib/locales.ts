import { featureLocales } from '@/lib/i18n';

/** The translations of the "Domains and sign-in" section (verified domains, sign-in connections, access requests), loaded with it (lib/i18n.ts, featureLocales). */
export const identityLocales = featureLocales(import.meta.glob('../locales/*.json'));

/** The translations of the connection policy and setup links, loaded with them. */
export const setupLinksLocales = featureLocales(import.meta.glob('../locales/setup-links/*.json'));
