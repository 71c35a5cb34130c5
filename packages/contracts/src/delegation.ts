import { APP_SECTIONS, hasFullPermission, isUserManager, type AppSection, type RightDefinition, type Rights } from './rights.js';

/**
 * Delegated administration without escalation (docs/security.md, "Delegated administration"):
 * an actor gives or takes away only rights it holds itself, and does not change or remove a member
 * who holds a right it lacks. Pure rules, used by the server to refuse and by the rights editor to
 * disable the boxes an actor may not change.
 *
 * What an actor holds, right by right (its own rights are read in its own organization):
 * - an app's full permission (either variant, or global full permission) holds every box of that app
 *   except the provider-staff boxes and the developer box;
 * - provider-staff boxes (the provider variant of full permission and the provider-only sub-rights)
 *   are held only by provider staff who have them, or who have the provider full permission of the app;
 * - global full permission is held by whoever has it, or has full permission in every app
 *   (the provider's administrators, whose organization has no global box);
 * - the developer box is held by developers;
 * - any other box is held when the actor has it ticked.
 */

/** Who changes rights: their own rights and whether they are a developer. */
export interface Delegator {
  rights: Rights;
  isDeveloper: boolean;
}

/** Why a box is locked in the rights editor (a translation key of the web app). */
export type DelegationLock = 'rights_locked_not_held' | 'rights_locked_member_has_more';

/** Whether the actor holds global full permission (it, or full permission in every app). */
export function holdsGlobalFullPermission(actor: Delegator): boolean {
  return actor.rights.global_full_permission || APP_SECTIONS.every((s) => hasFullPermission(actor.rights, s.section));
}

/** Whether the actor holds one box of an app section. */
export function holdsRight(actor: Delegator, section: AppSection, right: RightDefinition): boolean {
  const own = actor.rights[section.section];
  const providerFull = own.nedap_user_full_permission === true;
  switch (right.kind) {
    case 'developer':
      return actor.isDeveloper;
    case 'provider_full':
      return providerFull;
    case 'provider_sub':
      return providerFull || own[right.name] === true;
    case 'full':
    case 'access':
    case 'sub':
    case 'non_provider_sub':
      return hasFullPermission(actor.rights, section.section) || own[right.name] === true;
  }
}

/** Boxes ticked in `rights` that the actor does not hold, as "section.right" names. */
export function rightsNotHeld(actor: Delegator, rights: Rights): string[] {
  const missing: string[] = [];
  if (rights.global_full_permission && !holdsGlobalFullPermission(actor)) missing.push('global_full_permission');
  for (const s of APP_SECTIONS) {
    for (const right of s.rights) {
      if (rights[s.section][right.name] === true && !holdsRight(actor, s, right)) missing.push(`${s.section}.${right.name}`);
    }
  }
  return missing;
}

/** Boxes that differ between `before` and `after` and that the actor does not hold. */
export function changesNotHeld(actor: Delegator, before: Rights, after: Rights): string[] {
  const missing: string[] = [];
  if (before.global_full_permission !== after.global_full_permission && !holdsGlobalFullPermission(actor))
    missing.push('global_full_permission');
  for (const s of APP_SECTIONS) {
    for (const right of s.rights) {
      const changed = (before[s.section][right.name] === true) !== (after[s.section][right.name] === true);
      if (changed && !holdsRight(actor, s, right)) missing.push(`${s.section}.${right.name}`);
    }
  }
  return missing;
}

/** Whether the actor may change the rights of, or remove, a member with these rights. */
export function canManageMember(actor: Delegator, memberRights: Rights): boolean {
  return rightsNotHeld(actor, memberRights).length === 0;
}

/**
 * The provider's root organization always keeps a member who can manage users: true when a change
 * from `before` to `after` (null: the member is removed) takes away the last one, given whether
 * another member of the root organization can manage users.
 */
export function removesLastRootUserManager(before: Rights, after: Rights | null, anotherUserManager: boolean): boolean {
  if (anotherUserManager || !isUserManager(before)) return false;
  return after === null || !isUserManager(after);
}

/** The rights with every box the actor does not hold switched off. */
export function withinHeldRights(actor: Delegator, rights: Rights): Rights {
  const kept = structuredClone(rights);
  if (kept.global_full_permission && !holdsGlobalFullPermission(actor)) kept.global_full_permission = false;
  for (const s of APP_SECTIONS) {
    for (const right of s.rights)
      if (kept[s.section][right.name] === true && !holdsRight(actor, s, right)) kept[s.section][right.name] = false;
  }
  return kept;
}
