import { isDomainAllowed } from '@partner-portal/contracts';
import type { Queryable } from '../../db/client.js';
import type { Actor } from '../../http/actor.js';
import { listEmailDomains } from '../organizations/queries.js';
import { managesUsersAt } from '../scope/access.js';
import * as q from './queries.js';
import type { Invitations } from './service.js';

/**
 * The invitations of members who exist before they can sign in — those a directory provisions
 * (modules/scim): one pending invitation per member at most, which gives the member a password
 * when accepted (acceptance.ts), and an address that a new member takes from pending invitations.
 * Each runs in the caller's transaction and audits with the caller's actor; whose invitation an
 * actor may supersede is decided by scope/ (managesUsersAt), as for any other actor.
 */

/**
 * Whether the organization's allowed e-mail domains (none: any) admit the address, as for an
 * invitation (service.ts): null when they do, else the domains it allows.
 */
export async function domainsRefusing(tx: Queryable, organizationId: string, email: string): Promise<string[] | null> {
  const allowed = await listEmailDomains(tx, organizationId);
  return isDomainAllowed(email, allowed) ? null : allowed;
}

/** A member's pending invitation, if any. */
export async function pendingInvitationOfMember(tx: Queryable, memberId: string): Promise<q.InvitationRow | null> {
  return q.pendingInvitationOfMember(tx, memberId);
}

/** Revoke a member's pending invitation, if any (audited with the actor, invitation.revoked announced). */
export async function revokePendingInvitationOfMember(
  tx: Queryable,
  invitations: Invitations,
  actor: Actor,
  memberId: string,
): Promise<void> {
  const pending = await q.pendingInvitationOfMember(tx, memberId);
  if (pending) await invitations.revokeIn(tx, actor, pending);
}

/**
 * Make an address free for a new member of the actor's: 'taken' when an account has it; 'held'
 * when a pending invitation of an organization the actor does not manage holds it; else the
 * actor's own pending invitations of it are superseded (revoked, audited) and it is 'free'.
 * Expired invitations of the address are swept first.
 */
export async function makeWayForAddress(
  tx: Queryable,
  invitations: Invitations,
  actor: Actor,
  email: string,
): Promise<'free' | 'taken' | 'held'> {
  if (await q.userExists(tx, email)) return 'taken';
  await q.sweepExpired(tx, email);
  const pending = await q.pendingInvitationsOf(tx, email);
  if (pending.some((invitation) => !managesUsersAt(actor, invitation.organization_path))) return 'held';
  for (const invitation of pending) await invitations.revokeIn(tx, actor, invitation);
  return 'free';
}
