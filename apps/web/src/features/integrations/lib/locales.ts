import { featureLocales } from '@/lib/i18n';

/** The translations of the "Integrations" section (service accounts, SCIM tokens, webhooks and their deliveries, audit streams), loaded with it (lib/i18n.ts, featureLocales). */
export const integrationsLocales = featureLocales(import.meta.glob('../locales/*.json'));
