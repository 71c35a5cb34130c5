import { rightsNotHeld, type OrganizationMember, type UserInfo } from '@partner-portal/contracts';

/**
 * What the signed-in user may do with a member, told beforehand by the rule the server enforces
 * (contracts delegation.ts), and the rights a refusal lists, named as the rights editor names them.
 */

/**
 * The rights the member holds that the user does not (contracts delegation.ts, as the server
 * decides): with any, the user may not remove the member or reset their second factors. None
 * when the answer does not carry the member's rights (the server decides then).
 */
export function rightsBeyondUser(user: UserInfo, member: OrganizationMember): string[] {
  if (!member.rights || !user.rights) return [];
  return rightsNotHeld({ rights: user.rights, isDeveloper: user.isDeveloper }, member.rights);
}
