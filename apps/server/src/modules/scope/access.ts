import { AppError } from '../../http/problem.js';
import type { Actor, SessionUser } from '../../http/session.js';

/**
 * The authorization model of the organization administration (docs/product.md, "Roles and rights"):
 * an actor manages only their own organization and its descendants (materialized path prefix).
 *
 * Order of checks, the same in every service call: not signed in → 401 (sessions.require);
 * no management role at all → 403; unknown target → 404; target outside the actor's subtree → 403.
 * The one lookup of the organization an actor acts on that applies them is service.ts
 * (organizationForActor).
 */

export type ManagerRole = 'user' | 'organization' | 'any';

/** The actor as a member of an organization (users without a membership manage nothing). */
export interface MemberActor extends Actor {
  organizationId: string;
  organizationPath: string;
}

export function isPathInSubtree(rootPath: string, path: string): boolean {
  return path === rootPath || path.startsWith(`${rootPath}/`);
}

export function hasRole(user: SessionUser, role: ManagerRole): boolean {
  if (!user.organizationId || !user.organizationPath) return false;
  switch (role) {
    case 'user':
      return user.userManager;
    case 'organization':
      return user.organizationManager;
    case 'any':
      return user.userManager || user.organizationManager;
  }
}

/** 403 unless the actor holds the role (checked before any lookup, so nothing leaks to plain members). */
export function requireRole(actor: Actor, role: ManagerRole): MemberActor {
  if (!hasRole(actor.user, role)) throw new AppError('forbidden');
  return { ...actor, organizationId: actor.user.organizationId!, organizationPath: actor.user.organizationPath! };
}

/** 403 unless the organization path lies in the actor's subtree. */
export function assertInSubtree(actor: MemberActor, path: string): void {
  if (!isPathInSubtree(actor.organizationPath, path)) throw new AppError('forbidden');
}

/** Provider administrators: organizationManagers of the provider's root organization. */
export function requireProviderAdministrator(actor: Actor): MemberActor {
  const member = requireRole(actor, 'organization');
  if (!actor.user.isProviderOrganization) throw new AppError('forbidden');
  return member;
}
