/**
 * The scope a service account asks for at the token endpoint; /api accepts tokens that carry it
 * (./service-accounts.ts). A module of its own, so that the page that shows it does not load zod.
 */
export const SERVICE_ACCOUNT_SCOPE = 'partner_portal_api';
