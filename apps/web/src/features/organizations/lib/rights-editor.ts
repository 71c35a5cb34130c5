import {
  accessRight,
  applyRightsRules,
  canManageMember,
  holdsGlobalFullPermission,
  holdsRight,
  fullPermissionRight,
  isGlobalFullPermissionOffered,
  isSubRight,
  offeredRights,
  rightsImpliedByFull,
  visibleSections,
  type AppSection,
  type DelegationLock,
  type Delegator,
  type RightDefinition,
  type Rights,
  type RightsContext,
  type SectionKey,
} from '@partner-portal/contracts';

/**
 * The state transitions of the rights editor (docs/product.md, "Roles and rights"), on top of the shared rules of
 * @partner-portal/contracts so that the editor and the server's enforcement always agree:
 * the implications of full permission and sub-rights (rights.ts), and delegation (delegation.ts),
 * by which the boxes an actor may not change are disabled with the reason.
 */

export interface BoxState {
  right: RightDefinition;
  checked: boolean;
  disabled: boolean;
  /** why the actor may not change this box (a translation key), if that is why it is disabled */
  lock: DelegationLock | null;
}

/** Who edits, and the member's rights as stored (before any change in the editor). */
export interface Delegation {
  actor: Delegator;
  memberRights: Rights;
}

export interface SectionState {
  section: AppSection;
  boxes: BoxState[];
}

export interface EditorState {
  globalOffered: boolean;
  global: boolean;
  /** why the actor may not change global full permission, if it may not */
  globalLock: DelegationLock | null;
  /** set when the member holds a right the actor lacks: nothing can be changed */
  memberLock: DelegationLock | null;
  sections: SectionState[];
}

/** Order of boxes in a section: full permission first, then access, then the sub-rights, then developer. */
const KIND_ORDER: Record<RightDefinition['kind'], number> = {
  full: 0,
  provider_full: 0,
  access: 1,
  sub: 2,
  provider_sub: 2,
  non_provider_sub: 2,
  developer: 3,
};

/** What the editor draws for the given rights (with a delegation: for that actor and member). */
export function editorState(rights: Rights, ctx: RightsContext, delegation?: Delegation): EditorState {
  const globalOffered = isGlobalFullPermissionOffered(ctx);
  const global = globalOffered && rights.global_full_permission;
  const memberLock: DelegationLock | null =
    delegation && !canManageMember(delegation.actor, delegation.memberRights) ? 'rights_locked_member_has_more' : null;
  const lockOf = (held: boolean): DelegationLock | null => memberLock ?? (delegation && !held ? 'rights_locked_not_held' : null);
  const globalLock = delegation ? lockOf(holdsGlobalFullPermission(delegation.actor)) : null;
  const sections = visibleSections(ctx).map((section) => {
    const values = rights[section.section];
    const full = fullPermissionRight(section, ctx);
    const fullOn = full ? values[full.name] === true : false;
    const implied = new Set(full ? rightsImpliedByFull(section, ctx).map((x) => x.name) : []);
    const access = accessRight(section);
    const offered = offeredRights(section, ctx);
    const anySub = offered.some((x) => isSubRight(x) && values[x.name] === true);
    const boxes = offered
      .map((right) => {
        let disabled = global; // global full permission checks and disables every app box
        if (!disabled && fullOn && implied.has(right.name)) disabled = true; // full permission holds them
        if (!disabled && access && right.name === access.name && anySub) disabled = true; // access locks while a sub-right is ticked
        const lock = delegation ? lockOf(holdsRight(delegation.actor, section, right)) : null;
        return { right, checked: values[right.name] === true, disabled: disabled || lock !== null, lock };
      })
      .sort((a, b) => KIND_ORDER[a.right.kind] - KIND_ORDER[b.right.kind]);
    return { section, boxes };
  });
  return { globalOffered, global, globalLock, memberLock, sections };
}

/**
 * Tick or untick global full permission. Ticking switches every app's full permission on;
 * unticking gives back the rights as they were just before the tick (`before`), so that a slip
 * costs nothing. Without them (the member already had it), unticking clears every box it holds.
 */
export function toggleGlobal(rights: Rights, value: boolean, ctx: RightsContext, before: Rights | null = null): Rights {
  if (value) return applyRightsRules({ ...rights, global_full_permission: true }, ctx);
  if (before) return applyRightsRules({ ...before, global_full_permission: false }, ctx);
  const next: Rights = { ...rights, global_full_permission: false };
  for (const section of visibleSections(ctx)) next[section.section] = withoutFull(rights, section, ctx, null);
  return applyRightsRules(next, ctx);
}

/** A section with its full permission and the boxes it implies set back to `before` (or cleared). */
function withoutFull(rights: Rights, section: AppSection, ctx: RightsContext, before: Rights | null): Rights[SectionKey] {
  const values = { ...rights[section.section] };
  const full = fullPermissionRight(section, ctx);
  if (!full) return values;
  for (const right of [full, ...rightsImpliedByFull(section, ctx)]) values[right.name] = before?.[section.section][right.name] === true;
  return values;
}

/**
 * Tick or untick one box of a section, then apply the shared rules. Unticking a full permission
 * gives back the boxes it had switched on as they were just before its tick (`before`), or clears
 * them when the member already had it.
 */
export function toggleRight(
  rights: Rights,
  section: SectionKey,
  name: string,
  value: boolean,
  ctx: RightsContext,
  before: Rights | null = null,
): Rights {
  const definition = visibleSections(ctx).find((s) => s.section === section);
  const full = definition ? fullPermissionRight(definition, ctx) : undefined;
  if (!value && definition && full?.name === name)
    return applyRightsRules({ ...rights, [section]: withoutFull(rights, definition, ctx, before) }, ctx);
  const next: Rights = { ...rights, [section]: { ...rights[section], [name]: value } };
  return applyRightsRules(next, ctx);
}

/** Whether ticking this box is a tick of a full permission (whose untick gives back what was before). */
export function isFullPermission(section: AppSection, name: string, ctx: RightsContext): boolean {
  return fullPermissionRight(section, ctx)?.name === name;
}
