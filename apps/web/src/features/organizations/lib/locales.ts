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
 * The translations of the "Domains and sign-in" section (components/identity: verified domains,
 * sign-in connections, access requests), loaded with it.
 */
export const identityLocales = featureLocales(import.meta.glob('../locales/identity/*.json'));

/**
 * The translations of the "Integrations" section (components/integrations: service accounts, SCIM
 * tokens, webhooks and their deliveries), loaded with it.
 */
export const integrationsLocales = featureLocales(import.meta.glob('../locales/integrations/*.json'));

/**
 * The translations of support access and support sessions (components/support), loaded with them.
 */
export const supportLocales = featureLocales(import.meta.glob('../locales/support/*.json'));

/**
 * The translations of the connection policy and setup links (components/setup-links), loaded with
 * them.
 */
export const setupLinksLocales = featureLocales(import.meta.glob('../locales/setup-links/*.json'));
