import { describe, expect, it } from 'vitest';
import { emptyRights, toRights, type Features, type RightsContext } from '@partner-portal/contracts';
import { editorState, toggleGlobal, toggleRight } from './rights-editor';

const features: Features = {
  control_tower_enabled: true,
  control_tower_enabled_for_non_nedap_users: false,
  ordering_tools_enabled: false,
  ordering_tools_enabled_for_non_nedap_users: false,
};
const partner: RightsContext = {
  isProviderOrganization: false,
  organizationClientIds: ['loyalty-app', 'freshdesk'],
  features,
  editorIsDeveloper: true,
};
const provider: RightsContext = { isProviderOrganization: true, organizationClientIds: [], features, editorIsDeveloper: true };

const box = (state: ReturnType<typeof editorState>, section: string, name: string) =>
  state.sections.find((s) => s.section.section === section)!.boxes.find((b) => b.right.name === name);

describe('the rights editor', () => {
  it('shows sections per app, global full permission only outside the provider', () => {
    const state = editorState(emptyRights(), partner);
    expect(state.globalOffered).toBe(true);
    expect(state.sections.map((s) => s.section.section)).toEqual(['partner_portal', 'loyalty', 'support_center']);
    expect(box(state, 'loyalty', 'developer')).toBeUndefined();
    expect(box(state, 'loyalty', 'nedap_user_order_manager')).toBeUndefined();
    const root = editorState(emptyRights(), provider);
    expect(root.globalOffered).toBe(false);
    expect(root.sections.map((s) => s.section.section)).toContain('control_tower');
    expect(box(root, 'loyalty', 'developer')).toBeDefined();
    expect(box(root, 'loyalty', 'user_full_permission')).toBeUndefined();
    expect(box(root, 'loyalty', 'nedap_user_full_permission')).toBeDefined();
    expect(
      editorState(emptyRights(), { ...provider, editorIsDeveloper: false }).sections.every((s) =>
        s.boxes.every((b) => b.right.kind !== 'developer'),
      ),
    ).toBe(true);
  });

  it('global full permission checks and disables every app box', () => {
    const rights = toggleGlobal(emptyRights(), true, partner);
    const state = editorState(rights, partner);
    for (const s of state.sections) for (const b of s.boxes) expect(b.disabled).toBe(true);
    expect(box(state, 'loyalty', 'user_full_permission')!.checked).toBe(true);
    expect(box(state, 'loyalty', 'user_request_manager')!.checked).toBe(true);
    expect(box(state, 'loyalty', 'user_access')!.checked).toBe(true);
  });

  it('an app full permission sets access and sub-rights; provider staff use the provider variant', () => {
    const state = editorState(toggleRight(emptyRights(), 'loyalty', 'user_full_permission', true, partner), partner);
    expect(box(state, 'loyalty', 'user_access')).toMatchObject({ checked: true, disabled: true });
    expect(box(state, 'loyalty', 'user_request_manager')).toMatchObject({ checked: true, disabled: true });
    const root = editorState(toggleRight(emptyRights(), 'loyalty', 'nedap_user_full_permission', true, provider), provider);
    expect(box(root, 'loyalty', 'nedap_user_order_manager')!.checked).toBe(true);
    expect(box(root, 'loyalty', 'developer')!.checked).toBe(false);
  });

  it('a sub-right ticks access and access locks while any sub-right is ticked', () => {
    let rights = toggleRight(emptyRights(), 'loyalty', 'user_request_manager', true, partner);
    expect(box(editorState(rights, partner), 'loyalty', 'user_access')).toMatchObject({ checked: true, disabled: true });
    rights = toggleRight(rights, 'loyalty', 'user_access', false, partner);
    expect(rights.loyalty.user_access).toBe(true);
    rights = toggleRight(rights, 'loyalty', 'user_request_manager', false, partner);
    expect(box(editorState(rights, partner), 'loyalty', 'user_access')).toMatchObject({ checked: true, disabled: false });
    rights = toggleRight(rights, 'loyalty', 'user_access', false, partner);
    expect(rights.loyalty.user_access).toBe(false);
  });

  it('unticking global full permission gives back every box as it was before the tick', () => {
    const before = toggleRight(emptyRights(), 'loyalty', 'user_request_manager', true, partner);
    const ticked = toggleGlobal(before, true, partner);
    expect(ticked.partner_portal.user_full_permission).toBe(true);
    expect(toggleGlobal(ticked, false, partner, before)).toEqual(before);
    // without the rights before the tick (the member had it already), nothing it switched on stays
    const cleared = toggleGlobal(ticked, false, partner);
    for (const s of editorState(cleared, partner).sections)
      for (const b of s.boxes) expect(b.checked, `${s.section.section}.${b.right.name}`).toBe(false);
  });

  it('unticking an app’s full permission gives back its boxes as they were before the tick', () => {
    const before = toggleRight(emptyRights(), 'loyalty', 'user_access', true, partner);
    const ticked = toggleRight(before, 'loyalty', 'user_full_permission', true, partner);
    expect(ticked.loyalty.user_request_manager).toBe(true);
    expect(toggleRight(ticked, 'loyalty', 'user_full_permission', false, partner, before)).toEqual(before);
  });

  it('disables, with the reason, the boxes the actor does not hold, and everything of a member with more rights', () => {
    const actor = { rights: toRights({ partner_portal: { user_user_manager: true } }), isDeveloper: false };
    const state = editorState(emptyRights(), partner, { actor, memberRights: emptyRights() });
    expect(state.globalLock).toBe('rights_locked_not_held');
    expect(state.memberLock).toBeNull();
    expect(box(state, 'partner_portal', 'user_user_manager')).toMatchObject({ disabled: false, lock: null });
    expect(box(state, 'partner_portal', 'user_sub_organization_manager')).toMatchObject({ disabled: true, lock: 'rights_locked_not_held' });
    expect(box(state, 'loyalty', 'user_access')).toMatchObject({ disabled: true, lock: 'rights_locked_not_held' });
    const above = editorState(emptyRights(), partner, { actor, memberRights: toRights({ loyalty: { user_access: true } }) });
    expect(above.memberLock).toBe('rights_locked_member_has_more');
    for (const s of above.sections)
      for (const b of s.boxes) expect(b).toMatchObject({ disabled: true, lock: 'rights_locked_member_has_more' });
  });
});
