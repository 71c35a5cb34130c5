import { featureLocales } from '@/lib/i18n';

/**
 * This feature's translations (lib/i18n.ts, featureLocales).
 */
export const organizationLocales = featureLocales(import.meta.glob('../locales/*.json'));

/**
 * The translations of the administrator's tools on the manage page (audit trail, bulk
 * invitations, allowed e-mail domains, inactive members), loaded with them.
 */
export const administrationLocales = featureLocales(import.meta.glob('../locales/administration/*.json'));

/**
 * The translations of support access and support sessions (components/support), loaded with them.
 */
export const supportLocales = featureLocales(import.meta.glob('../locales/support/*.json'));
