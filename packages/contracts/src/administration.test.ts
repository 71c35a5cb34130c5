import { describe, expect, it } from 'vitest';
import { bulkRemoveMembersRequestSchema, inactiveDaysSchema, rightsTakenAway } from './index.js';

describe('rightsTakenAway', () => {
  it('is true when any right on before is off after, at any depth', () => {
    expect(rightsTakenAway({ loyalty: { user_access: true } }, { loyalty: { user_access: false } })).toBe(true);
    expect(rightsTakenAway({ loyalty: { user_access: true } }, {})).toBe(true);
    expect(rightsTakenAway({ global_full_permission: true }, { global_full_permission: false })).toBe(true);
  });

  it('is false when rights are only added or stay the same', () => {
    expect(rightsTakenAway({ loyalty: { user_access: true } }, { loyalty: { user_access: true, user_request_manager: true } })).toBe(false);
    expect(rightsTakenAway({ loyalty: { user_access: false } }, { loyalty: { user_access: true } })).toBe(false);
    expect(rightsTakenAway({}, { partner_portal: { user_user_manager: true } })).toBe(false);
  });
});

describe('inactiveDaysSchema', () => {
  it('takes 30, 90, 180 or 365 as text (a query parameter) and gives the number', () => {
    expect(inactiveDaysSchema.parse('90')).toBe(90);
    expect(inactiveDaysSchema.safeParse('7').success).toBe(false);
    expect(inactiveDaysSchema.safeParse('').success).toBe(false);
  });
});

describe('bulkRemoveMembersRequestSchema', () => {
  it('takes 1–200 distinct membership ids', () => {
    const id = '7d6e1b2a-1c3d-4e5f-8a9b-0c1d2e3f4a5b';
    expect(bulkRemoveMembersRequestSchema.safeParse({ member_ids: [id] }).success).toBe(true);
    expect(bulkRemoveMembersRequestSchema.safeParse({ member_ids: [] }).success).toBe(false);
    expect(bulkRemoveMembersRequestSchema.safeParse({ member_ids: [id, id] }).success).toBe(false);
  });
});
