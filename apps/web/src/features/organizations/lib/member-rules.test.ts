import { describe, expect, it } from 'vitest';
import { emptyRights, type OrganizationMember, type UserInfo } from '@partner-portal/contracts';
import { ApiError } from '../../../lib/api';
import { rightInWords, withRightsInWords } from '../../../lib/rights-in-words';
import { rightsBeyondUser } from './member-rules';

const words: Record<string, string> = {
  'rights.global_full_permission': 'Full permission for all applications',
  'rights.loyalty.title': 'Loyalty & Trade-in',
  'rights.common.user_access': 'Access',
  'rights.partner_portal.title': 'Partner Portal',
  'rights.common.user_sub_organization_manager': 'Manage sub-organizations',
};
const t = (key: string, options?: Record<string, unknown>) => words[key] ?? (options?.defaultValue as string | undefined) ?? key;

describe('rights in words', () => {
  it('names a right by its application and its name, as the rights editor does', () => {
    expect(rightInWords('loyalty.user_access', t)).toBe('Loyalty & Trade-in: Access');
    expect(rightInWords('partner_portal.user_sub_organization_manager', t)).toBe('Partner Portal: Manage sub-organizations');
    expect(rightInWords('global_full_permission', t)).toBe('Full permission for all applications');
  });

  it('rewrites the rights a refusal lists, and leaves other failures alone', () => {
    const refusal = new ApiError(403, {
      title: 'Forbidden',
      status: 403,
      i18NTranslationKey: 'cannot_manage_member_with_more_rights',
      messages: ['loyalty.user_access'],
    } as never);
    expect((withRightsInWords(refusal, t) as ApiError).problem?.messages).toEqual(['Loyalty & Trade-in: Access']);
    const other = new ApiError(409, {
      title: 'x',
      status: 409,
      i18NTranslationKey: 'not_allowed_to_invite_other_domains',
      messages: ['@a.example'],
    } as never);
    expect(withRightsInWords(other, t)).toBe(other);
  });
});

describe('rights beyond the user', () => {
  const manager = { rights: emptyRights(), isDeveloper: false } as unknown as UserInfo;
  manager.rights!.partner_portal.user_user_manager = true;
  const member = (set: (r: ReturnType<typeof emptyRights>) => void): OrganizationMember => {
    const rights = emptyRights();
    set(rights);
    return { id: 'm', organization_id: 'o', email_address: 'm@example.com', rights };
  };

  it('lists what the member holds and the user does not (the server’s rule)', () => {
    expect(
      rightsBeyondUser(
        manager,
        member((r) => (r.loyalty.user_access = true)),
      ),
    ).toEqual(['loyalty.user_access']);
    expect(
      rightsBeyondUser(
        manager,
        member((r) => (r.partner_portal.user_user_manager = true)),
      ),
    ).toEqual([]);
  });

  it('tells nothing when the answer does not carry the member’s rights', () => {
    expect(rightsBeyondUser(manager, { id: 'm', organization_id: 'o', email_address: 'm@example.com' })).toEqual([]);
  });
});
