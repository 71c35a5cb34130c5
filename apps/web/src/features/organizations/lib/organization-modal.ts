import type { Invitation, OrganizationMember } from '@partner-portal/contracts';

/** The one modal the organization view may show at a time, with what it acts on. */
export type OrganizationModal =
  | { type: 'create' }
  | { type: 'edit' }
  | { type: 'delete' }
  | { type: 'invite' }
  | { type: 'rights'; member: OrganizationMember }
  | { type: 'remove'; member: OrganizationMember }
  | { type: 'reset-factors'; member: OrganizationMember }
  | { type: 'revoke'; invitation: Invitation }
  | { type: 'sign-out'; member: OrganizationMember }
  | { type: 'bulk-invite' };
