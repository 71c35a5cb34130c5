import { describe, expect, it } from 'vitest';
import {
  canManageMember,
  changesNotHeld,
  holdsGlobalFullPermission,
  removesLastRootUserManager,
  rightsNotHeld,
  withinHeldRights,
} from './delegation.js';
import { APP_SECTIONS, emptyRights, toRights, type Rights } from './rights.js';

const userManager = { rights: toRights({ partner_portal: { user_user_manager: true } }), isDeveloper: false };
const portalFull = { rights: toRights({ partner_portal: { user_full_permission: true } }), isDeveloper: false };
function providerAdministrator(isDeveloper: boolean) {
  const rights = emptyRights();
  for (const s of APP_SECTIONS)
    for (const r of s.rights) if (r.kind !== 'full' && r.kind !== 'non_provider_sub') rights[s.section][r.name] = true;
  return { rights, isDeveloper };
}
const with_ = (set: (r: Rights) => void) => {
  const r = emptyRights();
  set(r);
  return r;
};
/** The boxes of the rights set by `set` that the actor does not hold. */
const notHeld = (actor: Parameters<typeof rightsNotHeld>[0], set: (r: Rights) => void) => rightsNotHeld(actor, with_(set));

describe('delegation: an actor hands out only rights it holds', () => {
  it('a userManager holds its own box, not organization management nor global full permission', () => {
    expect(notHeld(userManager, (r) => (r.partner_portal.user_user_manager = true))).toEqual([]);
    expect(notHeld(userManager, (r) => (r.partner_portal.user_sub_organization_manager = true))).toEqual([
      'partner_portal.user_sub_organization_manager',
    ]);
    expect(notHeld(userManager, (r) => (r.global_full_permission = true))).toEqual(['global_full_permission']);
  });

  it('an app’s full permission holds the app’s boxes, except provider-staff and developer boxes', () => {
    expect(
      notHeld(portalFull, (r) =>
        Object.assign(r.partner_portal, { user_full_permission: true, user_user_manager: true, user_sub_organization_manager: true }),
      ),
    ).toEqual([]);
    expect(notHeld(portalFull, (r) => (r.partner_portal.nedap_user_full_permission = true))).toEqual([
      'partner_portal.nedap_user_full_permission',
    ]);
    expect(notHeld(portalFull, (r) => (r.partner_portal.developer = true))).toEqual(['partner_portal.developer']);
    expect(notHeld(portalFull, (r) => (r.loyalty.user_access = true))).toEqual(['loyalty.user_access']);
  });

  it('the provider’s administrators hold global full permission; developer boxes need a developer', () => {
    expect(holdsGlobalFullPermission(providerAdministrator(false))).toBe(true);
    expect(holdsGlobalFullPermission(portalFull)).toBe(false);
    const everything = with_((r) => {
      r.global_full_permission = true;
      r.subscription.user_suspender = true;
      r.loyalty.nedap_user_order_manager = true;
    });
    expect(rightsNotHeld(providerAdministrator(false), everything)).toEqual([]);
    expect(notHeld(providerAdministrator(false), (r) => (r.partner_portal.developer = true))).toEqual(['partner_portal.developer']);
    expect(notHeld(providerAdministrator(true), (r) => (r.partner_portal.developer = true))).toEqual([]);
  });

  it('only changed boxes count; a member with a box the actor lacks cannot be managed', () => {
    const member = with_((r) => (r.loyalty.user_access = true));
    expect(changesNotHeld(userManager, member, member)).toEqual([]);
    expect(changesNotHeld(userManager, member, emptyRights())).toEqual(['loyalty.user_access']);
    expect(canManageMember(userManager, member)).toBe(false);
    const fellowManager = with_((r) => (r.partner_portal.user_user_manager = true));
    expect(canManageMember(userManager, fellowManager)).toBe(true);
  });

  it('the last user manager of the root organization stays', () => {
    const manager = with_((r) => (r.partner_portal.user_user_manager = true));
    expect(removesLastRootUserManager(manager, null, false)).toBe(true);
    expect(removesLastRootUserManager(manager, emptyRights(), false)).toBe(true);
    expect(removesLastRootUserManager(manager, manager, false)).toBe(false);
    expect(removesLastRootUserManager(manager, null, true)).toBe(false);
    expect(removesLastRootUserManager(emptyRights(), null, false)).toBe(false);
  });

  it('keeps of some rights only what the actor holds', () => {
    const asked = with_((r) => {
      r.global_full_permission = true;
      r.partner_portal.user_user_manager = true;
      r.partner_portal.user_full_permission = true;
    });
    expect(withinHeldRights(userManager, asked)).toEqual(with_((r) => (r.partner_portal.user_user_manager = true)));
    expect(withinHeldRights(providerAdministrator(false), asked)).toEqual(asked);
  });
});
