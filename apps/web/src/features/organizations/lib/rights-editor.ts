import {
  accessRight,
  applyRightsRules,
  fullPermissionRight,
  isGlobalFullPermissionOffered,
  isSubRight,
  offeredRights,
  rightsImpliedByFull,
  visibleSections,
  type AppSection,
  type RightDefinition,
  type Rights,
  type RightsContext,
  type SectionKey,
} from '@partner-portal/contracts';

/**
 * The state transitions of the rights editor (spec §6), on top of the shared rules of
 * @partner-portal/contracts so that the editor and the server's enforcement always agree.
 */

export interface BoxState {
  right: RightDefinition;
  checked: boolean;
  disabled: boolean;
}

export interface SectionState {
  section: AppSection;
  boxes: BoxState[];
}

export interface EditorState {
  globalOffered: boolean;
  global: boolean;
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

/** What the editor draws for the given rights. */
export function editorState(rights: Rights, ctx: RightsContext): EditorState {
  const globalOffered = isGlobalFullPermissionOffered(ctx);
  const global = globalOffered && rights.global_full_permission;
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
        return { right, checked: values[right.name] === true, disabled };
      })
      .sort((a, b) => KIND_ORDER[a.right.kind] - KIND_ORDER[b.right.kind]);
    return { section, boxes };
  });
  return { globalOffered, global, sections };
}

/** Tick or untick global full permission. */
export function toggleGlobal(rights: Rights, value: boolean, ctx: RightsContext): Rights {
  return applyRightsRules({ ...rights, global_full_permission: value }, ctx);
}

/** Tick or untick one box of a section, then apply the shared rules. */
export function toggleRight(rights: Rights, section: SectionKey, name: string, value: boolean, ctx: RightsContext): Rights {
  const next: Rights = { ...rights, [section]: { ...rights[section], [name]: value } };
  return applyRightsRules(next, ctx);
}
