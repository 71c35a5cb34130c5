import { describe, expect, it } from 'vitest';
import { emptyRights, type RightsContext } from '@partner-portal/contracts';
import { validateRights } from './rights-context.js';
import { neutralizeFormula } from '../spreadsheets/cells.js';
import { buildTree } from '../organizations/service.js';
import { containsPattern, subtreeCondition } from '../../db/sql.js';
import { isPathInSubtree } from '../scope/access.js';

const features = {
  control_tower_enabled: false,
  control_tower_enabled_for_non_nedap_users: false,
  ordering_tools_enabled: true,
  ordering_tools_enabled_for_non_nedap_users: true,
};
const dealer: RightsContext = {
  isProviderOrganization: false,
  organizationClientIds: ['loyalty-app', 'media-library'],
  features,
  editorIsDeveloper: false,
};
const root: RightsContext = { isProviderOrganization: true, organizationClientIds: [], features, editorIsDeveloper: false };

describe('formula injection', () => {
  it('prefixes cells that a spreadsheet would run', () => {
    for (const v of ['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx']) expect(neutralizeFormula(v)).toBe(`'${v}`);
    expect(neutralizeFormula('anna@example.com')).toBe('anna@example.com');
  });
});

describe('search patterns', () => {
  it('escapes LIKE characters and lower-cases', () => {
    expect(containsPattern('A_b%c\\')).toBe('%a\\_b\\%c\\\\%');
  });
});

describe('subtrees', () => {
  it('matches the organization and its descendants, not siblings sharing a prefix', () => {
    expect(isPathInSubtree('a/b', 'a/b')).toBe(true);
    expect(isPathInSubtree('a/b', 'a/b/c')).toBe(true);
    expect(isPathInSubtree('a/b', 'a/b-c')).toBe(false);
    expect(isPathInSubtree('a/b', 'a')).toBe(false);
    expect(subtreeCondition('path', '$1')).toContain("'0'");
  });

  it('nests nodes sorted by path', () => {
    const row = (key: string, parent: string | null, path: string) => ({
      key,
      parent_id: parent,
      label: key,
      path,
      can_create_sub_organization: false,
      sub_organization_can_have_children: false,
      members: 0,
      pending_invitations: 0,
      apps: [],
      allowed_email_domains: [],
      children: [],
    });
    const tree = buildTree([row('a', 'x', 'r/a'), row('b', 'a', 'r/a/b'), row('c', 'a', 'r/a/c'), row('d', 'b', 'r/a/b/d')])!;
    expect(tree.key).toBe('a');
    expect(tree.children.map((c) => c.key)).toEqual(['b', 'c']);
    expect(tree.children[0]!.children[0]!.key).toBe('d');
  });
});

describe('rights validation', () => {
  it('refuses provider rights, global full permission at the root, apps the organization lacks', () => {
    const provider = emptyRights();
    provider.loyalty.nedap_user_order_manager = true;
    expect(() => validateRights(provider, dealer, null)).toThrow();
    const global = emptyRights();
    global.global_full_permission = true;
    expect(() => validateRights(global, root, null)).toThrow();
    const app = emptyRights();
    app.academy.user_access = true;
    expect(() => validateRights(app, dealer, null)).toThrow();
  });

  it('applies the implications and keeps developer boxes a non-developer cannot change', () => {
    const sub = emptyRights();
    sub.loyalty.user_request_manager = true;
    expect(validateRights(sub, dealer, null).loyalty.user_access).toBe(true);
    const stored = emptyRights();
    stored.partner_portal.developer = true;
    const input = emptyRights();
    input.partner_portal.developer = true;
    input.partner_portal.user_user_manager = true;
    const out = validateRights(input, root, stored);
    expect(out.partner_portal.developer).toBe(true);
    expect(out.partner_portal.user_user_manager).toBe(true);
    const removed = emptyRights();
    expect(() => validateRights(removed, root, stored)).toThrow();
  });
});
