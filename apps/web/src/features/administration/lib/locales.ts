import { featureLocales } from '@/lib/i18n';

/**
 * The translations of the administrator's tools on the manage page (audit trail, bulk
 * invitations, allowed e-mail domains, inactive members): lib/i18n.ts, featureLocales.
 */
export const administrationLocales = featureLocales(import.meta.glob('../locales/*.json'));
