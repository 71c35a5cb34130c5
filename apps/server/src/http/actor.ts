import type { Rights } from '@partner-portal/contracts';

/**
 * The organization and rights an actor (http/session.ts, Actor) acts with: a signed-in person's
 * membership (a SessionUser holds them all) or a service account's (http/bearer.ts).
 */
export interface ActingRights {
  organizationId: string | null;
  organizationPath: string | null;
  /** the organization is the provider's root organization */
  isProviderOrganization: boolean;
  rights: Rights;
  userManager: boolean;
  organizationManager: boolean;
  isDeveloper: boolean;
}

/** A service account as a request acts with it (http/bearer.ts): its organization as it is now, the rights it was given, no user. */
export interface ServiceAccountPrincipal extends ActingRights {
  id: string;
  name: string;
  clientId: string;
  organizationId: string;
  organizationPath: string;
}
