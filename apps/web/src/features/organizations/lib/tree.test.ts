import { describe, expect, it } from 'vitest';
import type { OrganizationNode } from '@partner-portal/contracts';
import {
  ancestorIds,
  changeCount,
  filterMask,
  indexTree,
  insertNode,
  removeNode,
  renameNode,
  rowAt,
  setApps,
  setCanCreateSubOrganizations,
  visibleRows,
  type TreeIndex,
} from './tree';

const draw = (index: TreeIndex, expanded: Set<string>, mask: Uint8Array | null) => {
  const rows = visibleRows(index, expanded, mask);
  return Array.from(rows, (_, r) => rowAt(index, rows, r, expanded, mask));
};

const node = (key: string, label: string, children: OrganizationNode[] = [], extra: Partial<OrganizationNode> = {}): OrganizationNode => ({
  key,
  label,
  parent_id: null,
  path: key,
  can_create_sub_organization: true,
  sub_organization_can_have_children: true,
  pending_invitations: 0,
  members: 0,
  apps: ['a', 'b'],
  allowed_email_domains: [],
  children,
  ...extra,
});

const tree = () =>
  node('root', 'Root', [
    node('b', 'Bravo', [node('b1', 'Bravo One')]),
    node('d', 'Delta', [node('d1', 'Delta One', [node('d11', 'Deep')])]),
  ]);

describe('the side tree', () => {
  it('inserts a new organization in name order', () => {
    const next = insertNode(tree(), 'root', node('c', 'charlie'));
    expect(next.children.map((c) => c.label)).toEqual(['Bravo', 'charlie', 'Delta']);
    const first = insertNode(next, 'root', node('a', 'Alpha'));
    expect(first.children.map((c) => c.key)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('shares untouched subtrees', () => {
    const before = tree();
    const next = insertNode(before, 'd1', node('x', 'X'));
    expect(next.children[0]).toBe(before.children[0]);
    expect(next.children[1]!.children[0]!.children.map((c) => c.key)).toEqual(['d11', 'x']);
  });

  it('removes a node and renames with re-ordering', () => {
    expect(removeNode(tree(), 'd11').children[1]!.children[0]!.children).toEqual([]);
    const renamed = renameNode(tree(), 'b', 'Zulu', 'root');
    expect(renamed.children.map((c) => c.key)).toEqual(['d', 'b']);
  });

  it('finds ancestors and filters with ancestors kept', () => {
    const index = indexTree(tree());
    expect(ancestorIds(index, 'd11')).toEqual(['root', 'd', 'd1']);
    const mask = filterMask(index, 'DEEP');
    expect(index.order.filter((_, i) => mask![i]).map((n) => n.key)).toEqual(['root', 'd', 'd1', 'd11']);
    expect(filterMask(index, '  ')).toBeNull();
    const rows = draw(index, new Set(), mask);
    expect(rows.map((r) => [r.node.key, r.level, r.hasChildren, r.expanded])).toEqual([
      ['root', 1, true, true],
      ['d', 2, true, true],
      ['d1', 3, true, true],
      ['d11', 4, false, false],
    ]);
  });

  it('shows only expanded children without a filter', () => {
    const index = indexTree(tree());
    expect(draw(index, new Set(), null).map((r) => r.node.key)).toEqual(['root']);
    const rows = draw(index, new Set(['root', 'b']), null);
    expect(rows.map((r) => [r.node.key, r.expanded, r.hasChildren])).toEqual([
      ['root', true, true],
      ['b', true, true],
      ['b1', false, false],
      ['d', false, true],
    ]);
  });

  it('updates counts, cascades can-create and app availability', () => {
    expect(changeCount(tree(), 'b1', 'members', 1).children[0]!.children[0]!.members).toBe(1);
    expect(changeCount(tree(), 'b1', 'members', -1).children[0]!.children[0]!.members).toBe(0);
    const off = setCanCreateSubOrganizations(tree(), 'd', false);
    expect(off.children[1]!.can_create_sub_organization).toBe(false);
    expect(off.children[1]!.children[0]!.children[0]!.sub_organization_can_have_children).toBe(false);
    expect(off.children[0]!.sub_organization_can_have_children).toBe(true);
    const apps = setApps(tree(), 'd', ['a']);
    expect(apps.children[1]!.apps).toEqual(['a']);
    expect(apps.children[1]!.children[0]!.children[0]!.apps).toEqual(['a']);
    expect(apps.children[0]!.apps).toEqual(['a', 'b']);
  });

  it('filters 10,000 nodes within 50 ms', () => {
    const children: OrganizationNode[] = [];
    for (let i = 0; i < 100; i++) {
      const grand: OrganizationNode[] = [];
      for (let j = 0; j < 99; j++) grand.push(node(`n${i}-${j}`, `Dealer ${i} branch ${j}`));
      children.push(node(`n${i}`, `Partner ${i}`, grand));
    }
    const big = node('root', 'Root', children);
    const index = indexTree(big);
    expect(index.order.length).toBe(10_001);
    expect(big.children.length).toBe(100);
    const started = performance.now();
    for (const text of ['d', 'de', 'dea', 'deal', 'branch 9']) visibleRows(index, new Set(), filterMask(index, text));
    expect((performance.now() - started) / 5).toBeLessThan(50);
  });
});
