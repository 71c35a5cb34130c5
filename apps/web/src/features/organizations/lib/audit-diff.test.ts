import { describe, expect, it } from 'vitest';
import { auditDifference } from './audit-diff';

describe('auditDifference', () => {
  it('lists only what changed, by dotted path', () => {
    expect(
      auditDifference(
        { name: 'Old', rights: { partnerPortal: { userManager: true, organizationManager: false } } },
        { name: 'New', rights: { partnerPortal: { userManager: false, organizationManager: false } } },
      ),
    ).toEqual([
      { path: 'name', before: 'Old', after: 'New' },
      { path: 'rights.partnerPortal.userManager', before: 'true', after: 'false' },
    ]);
  });

  it('shows a creation as after values and a removal as before values; lists of plain values as one value', () => {
    expect(auditDifference(null, { name: 'Shed', allowed_email_domains: ['a.example', 'b.example'] })).toEqual([
      { path: 'name', before: null, after: 'Shed' },
      { path: 'allowed_email_domains', before: null, after: 'a.example, b.example' },
    ]);
    expect(auditDifference({ email: 'x@y.example' }, null)).toEqual([{ path: 'email', before: 'x@y.example', after: null }]);
    expect(auditDifference({ a: 1 }, { a: 1 })).toEqual([]);
  });
});
