import type { Rights } from '@partner-portal/contracts';

/**
 * The signed-in person as a request sees them (http/session.ts finds them; http/actor.ts makes a
 * PersonActor of them), in a file of its own below both.
 */
export interface SessionUser {
  id: string;
  sessionIdHash: string;
  email: string;
  firstName: string;
  lastName: string;
  languageCode: string;
  externalIdentityProvider: string | null;
  isDeveloper: boolean;
  membershipId: string | null;
  organizationId: string | null;
  organizationName: string | null;
  organizationPath: string | null;
  /** the user's organization is the provider's root organization */
  isProviderOrganization: boolean;
  rights: Rights;
  userManager: boolean;
  organizationManager: boolean;
  /** the password was generated for the user: nothing but changing it (and signing out) is allowed */
  mustChangePassword: boolean;
  /** the support session this session runs in (a supporter acting as the user), else null or absent */
  support?: SupportOfSession | null;
}

/**
 * The support session a portal session runs in (modules/support; docs/security.md, "Support
 * sessions"): the session is the member's, and also names its supporter, who acts as the member.
 */
export interface SupportOfSession {
  /** the support session's id */
  id: string;
  supporterUserId: string | null;
  supporterEmail: string;
  supporterName: string;
  /** the supporter's organization's path as the session started (the audit's second trail) */
  supporterOrganizationPath: string | null;
  /** when it ends (ISO 8601) */
  endsAt: string;
}
