import { AppError } from '../../http/problem.js';
import { actingAs, type ActingRights, type Actor } from '../../http/session.js';

/**
 * The authorization model of the organization administration (docs/product.md, "Roles and rights"):
 * an actor manages only their own organization and its descendants (materialized path prefix).
 * Every actor is such an actor (http/actor.ts): a person by their membership, a service account
 * and a directory's SCIM token by the organization and the rights they were given.
 *
 * Order of checks, the same in every service call: not signed in → 401 (sessions.require);
 * no management role at all → 403; unknown target → 404; target outside the actor's subtree → 403.
 * The one lookup of the organization an actor acts on that applies them is service.ts
 * (organizationForActor).
 */

export type ManagerRole = 'user' | 'organization' | 'any';

/** The actor as a member of an organization (users without a membership manage nothing). */
export type MemberActor = Actor & {
  organizationId: string;
  organizationPath: string;
};

export function isPathInSubtree(rootPath: string, path: string): boolean {
  return path === rootPath || path.startsWith(`${rootPath}/`);
}

export function hasRole(acting: ActingRights, role: ManagerRole): boolean {
  if (!acting.organizationId || !acting.organizationPath) return false;
  switch (role) {
    case 'user':
      return acting.userManager;
    case 'organization':
      return acting.organizationManager;
    case 'any':
      return acting.userManager || acting.organizationManager;
  }
}

/** 403 unless the actor holds the role (checked before any lookup, so nothing leaks to plain members). */
export function requireRole(actor: Actor, role: ManagerRole): MemberActor {
  const acting = actingAs(actor);
  if (!hasRole(acting, role)) throw new AppError('forbidden');
  return { ...actor, organizationId: acting.organizationId!, organizationPath: acting.organizationPath! };
}

/** 403 unless the organization path lies in the actor's subtree. */
export function assertInSubtree(actor: MemberActor, path: string): void {
  if (!isPathInSubtree(actor.organizationPath, path)) throw new AppError('forbidden');
}

/** Whether the actor manages users where the organization path lies (the role, and the path in its subtree): requireRole and assertInSubtree, as a question. */
export function managesUsersAt(actor: Actor, path: string): boolean {
  return hasRole(actingAs(actor), 'user') && isPathInSubtree(actor.organizationPath!, path);
}

/** Provider administrators: organizationManagers of the provider's root organization. */
export function requireProviderAdministrator(actor: Actor): MemberActor {
  const member = requireRole(actor, 'organization');
  if (!actingAs(actor).isProviderOrganization) throw new AppError('forbidden');
  return member;
}
