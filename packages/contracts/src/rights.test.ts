import { describe, expect, it } from 'vitest';
import {
  APP_SECTIONS,
  applyRightsRules,
  disallowedRights,
  emptyRights,
  isOrganizationManager,
  isUserManager,
  toRights,
  visibleSections,
  type RightsContext,
} from './rights.js';
import { rightsSchema } from './rights-schema.js';

const features = {
  control_tower_enabled: true,
  control_tower_enabled_for_non_nedap_users: false,
  ordering_tools_enabled: true,
  ordering_tools_enabled_for_non_nedap_users: true,
};
const provider: RightsContext = { isProviderOrganization: true, organizationClientIds: [], features, editorIsDeveloper: true };
const dealer: RightsContext = {
  isProviderOrganization: false,
  organizationClientIds: ['loyalty-app', 'ordering-tools-app', 'control-tower-app'],
  features,
  editorIsDeveloper: true,
};

describe('rights rules', () => {
  it('root sees every section; others see Partner Portal and their apps, gated by features', () => {
    expect(visibleSections(provider).map((s) => s.section)).toContain('control_tower');
    expect(visibleSections(provider)).toHaveLength(10);
    // control tower is not enabled for non-provider users, ordering tools is
    expect(visibleSections(dealer).map((s) => s.section)).toEqual(['partner_portal', 'loyalty', 'ordering_tools']);
  });

  it('a sub-right ticks access', () => {
    const rights = emptyRights();
    rights.loyalty.user_request_manager = true;
    expect(applyRightsRules(rights, dealer).loyalty.user_access).toBe(true);
  });

  it("an app's full permission ticks access and sub-rights, with provider variants for provider staff", () => {
    const rights = emptyRights();
    rights.ordering_tools.nedap_user_full_permission = true;
    const result = applyRightsRules(rights, provider);
    expect(result.ordering_tools.user_access).toBe(true);
    expect(result.ordering_tools.nedap_user_manage_articles_and_license_items).toBe(true);
    expect(result.ordering_tools.user_full_permission).toBe(false);
  });

  it('global full permission only outside the provider, and it ticks every visible app', () => {
    const rights = emptyRights();
    rights.global_full_permission = true;
    expect(disallowedRights(rights, provider)).toEqual(['global_full_permission']);
    const result = applyRightsRules(rights, dealer);
    expect(result.loyalty.user_full_permission).toBe(true);
    expect(result.loyalty.user_request_manager).toBe(true);
    expect(result.loyalty.nedap_user_order_manager).toBe(false);
    expect(result.subscription.user_access).toBe(false); // not one of the dealer's apps
  });

  it('refuses provider-only, developer and foreign-app rights outside their place', () => {
    const rights = emptyRights();
    rights.loyalty.nedap_user_order_manager = true;
    rights.partner_portal.developer = true;
    rights.subscription.user_access = true;
    expect(disallowedRights(rights, dealer).sort()).toEqual([
      'loyalty.nedap_user_order_manager',
      'partner_portal.developer',
      'subscription.user_access',
    ]);
    expect(
      disallowedRights(
        { ...emptyRights(), partner_portal: { ...emptyRights().partner_portal, developer: true } },
        { ...provider, editorIsDeveloper: false },
      ),
    ).toEqual(['partner_portal.developer']);
  });

  it('derives userManager and organizationManager', () => {
    const rights = emptyRights();
    expect(isUserManager(rights) || isOrganizationManager(rights)).toBe(false);
    rights.partner_portal.user_user_manager = true;
    expect(isUserManager(rights)).toBe(true);
    expect(isOrganizationManager(rights)).toBe(false);
    rights.partner_portal.user_full_permission = true;
    expect(isOrganizationManager(rights)).toBe(true);
  });

  it('parses the wire shape strictly and stored rights leniently', () => {
    expect(rightsSchema.safeParse({ loyalty: { user_access: true } }).success).toBe(true);
    expect(rightsSchema.safeParse({ loyalty: { bogus: true } }).success).toBe(false);
    expect(rightsSchema.safeParse({ loyalty: { user_access: 'yes' } }).success).toBe(false);
    expect(toRights({ loyalty: { user_access: true, bogus: true }, x: 1 }).loyalty.user_access).toBe(true);
  });

  it('gives every box of every section, true only where true was given', () => {
    const rights = toRights({ global_full_permission: 'true', loyalty: { user_access: true, user_full_permission: 1 }, portal: 'x' });
    expect(rights.global_full_permission).toBe(false);
    for (const section of APP_SECTIONS) {
      expect(Object.keys(rights[section.section]).sort()).toEqual(section.rights.map((r) => r.name).sort());
      for (const right of section.rights) {
        expect(rights[section.section][right.name as never]).toBe(section.section === 'loyalty' && right.name === 'user_access');
      }
    }
    expect(emptyRights()).toEqual(toRights(undefined));
    expect(Object.values(emptyRights().loyalty).every((v) => v === false)).toBe(true);
  });
});
