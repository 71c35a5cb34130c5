import type { Queryable } from '../../db/client.js';
import type { Actor } from '../../http/session.js';
import { assertInSubtree, requireRole, type ManagerRole, type MemberActor } from './access.js';
import { AppError } from '../../http/problem.js';
import { findOrganizationById, type OrganizationRow } from './queries.js';

export type { OrganizationRow };

/**
 * The one scope lookup of the organization administration (access.ts has the order of
 * checks): the organization an actor acts on, found and checked the same way by every module.
 * 403 without the role (before any lookup, so nothing leaks to plain members), 404 for an unknown
 * organization, 403 outside the actor's subtree. Without an id, the actor's own organization.
 * `forUpdate` locks the organization's row for the caller's transaction.
 */
export async function organizationForActor(
  db: Queryable,
  actor: Actor,
  organizationId: string | undefined,
  options: { role: ManagerRole; forUpdate?: boolean },
): Promise<{ member: MemberActor; org: OrganizationRow }> {
  const member = requireRole(actor, options.role);
  const org = await findOrganizationById(db, organizationId ?? member.organizationId, { forUpdate: options.forUpdate ?? false });
  if (!org) throw new AppError('not_found');
  assertInSubtree(member, org.path);
  return { member, org };
}
