import { featureLocales } from '@/lib/i18n';

/**
 * This feature's translations (lib/i18n.ts, featureLocales).
 */
export const setupLocales = featureLocales(import.meta.glob('../locales/*.json'));
