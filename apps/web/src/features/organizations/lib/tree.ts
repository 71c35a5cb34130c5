import type { OrganizationNode } from '@partner-portal/contracts';

/**
 * Pure operations on the organization tree of the side panel (docs/product.md, "Screens" and "Flows and states"). The tree is kept in
 * the query cache and changed in place of a refetch after each action, so these functions return
 * new objects along the changed path and share every untouched subtree.
 */

/** One drawn row of the side tree. */
export interface TreeRow {
  node: OrganizationNode;
  level: number;
  hasChildren: boolean;
  expanded: boolean;
}

/**
 * The tree flattened once per change, in depth-first order, as typed arrays: filtering and
 * listing the visible rows are then single passes without allocation per node, which keeps a
 * keystroke in the filter box fast with 10,000 organizations.
 */
export interface TreeIndex {
  order: OrganizationNode[];
  /** level of each node, root 1 */
  level: Int32Array;
  /** position of each node's parent, -1 for the root */
  parent: Int32Array;
  /** position just after each node's last descendant */
  end: Int32Array;
  lowerLabels: string[];
  position: Map<string, number>;
}

export function indexTree(root: OrganizationNode): TreeIndex {
  const order: OrganizationNode[] = [];
  const levels: number[] = [];
  const parents: number[] = [];
  const ends: number[] = [];
  const visit = (node: OrganizationNode, level: number, parent: number) => {
    const i = order.length;
    order.push(node);
    levels.push(level);
    parents.push(parent);
    ends.push(0);
    for (const child of node.children) visit(child, level + 1, i);
    ends[i] = order.length;
  };
  visit(root, 1, -1);
  return {
    order,
    level: Int32Array.from(levels),
    parent: Int32Array.from(parents),
    end: Int32Array.from(ends),
    lowerLabels: order.map((n) => n.label.toLowerCase()),
    position: new Map(order.map((n, i) => [n.key, i])),
  };
}

/** The ids of a node's ancestors, root first (the node itself excluded). */
export function ancestorIds(index: TreeIndex, id: string): string[] {
  const result: string[] = [];
  const at = index.position.get(id);
  if (at === undefined) return result;
  for (let p = index.parent[at]!; p >= 0; p = index.parent[p]!) result.unshift(index.order[p]!.key);
  return result;
}

/**
 * The nodes shown for a filter: each node whose name contains the text (case-insensitive) and its
 * ancestors, as a mask over the positions. Null when the filter is empty.
 */
export function filterMask(index: TreeIndex, filter: string): Uint8Array | null {
  const text = filter.trim().toLowerCase();
  if (!text) return null;
  const mask = new Uint8Array(index.order.length);
  const { lowerLabels, parent } = index;
  for (let i = 0; i < lowerLabels.length; i++) {
    if (!lowerLabels[i]!.includes(text)) continue;
    for (let p = i; p >= 0 && mask[p] === 0; p = parent[p]!) mask[p] = 1;
  }
  return mask;
}

/**
 * The positions of the rows to draw, in order: children only of expanded nodes; with a filter,
 * every shown node (shown nodes with shown children are expanded).
 */
export function visibleRows(index: TreeIndex, expanded: ReadonlySet<string>, mask: Uint8Array | null): Int32Array {
  const n = index.order.length;
  const rows = new Int32Array(n);
  let count = 0;
  if (mask) {
    for (let i = 0; i < n; i++) if (mask[i]) rows[count++] = i;
  } else {
    for (let i = 0; i < n;) {
      rows[count++] = i;
      i = expanded.has(index.order[i]!.key) ? i + 1 : index.end[i]!;
    }
  }
  return rows.subarray(0, count);
}

/** The row drawn at visible position `r`. */
export function rowAt(index: TreeIndex, rows: Int32Array, r: number, expanded: ReadonlySet<string>, mask: Uint8Array | null): TreeRow {
  const i = rows[r]!;
  const node = index.order[i]!;
  if (mask) {
    const next = rows[r + 1];
    const hasChildren = next !== undefined && next < index.end[i]!;
    return { node, level: index.level[i]!, hasChildren, expanded: hasChildren };
  }
  const hasChildren = index.end[i]! > i + 1;
  return { node, level: index.level[i]!, hasChildren, expanded: hasChildren && expanded.has(node.key) };
}

const byName = (a: OrganizationNode, b: OrganizationNode) =>
  a.label.localeCompare(b.label, undefined, { sensitivity: 'base' }) || a.path.localeCompare(b.path);

/** Replace the node with the given id by `change(node)`, copying only the path to it. */
export function updateNode(root: OrganizationNode, id: string, change: (node: OrganizationNode) => OrganizationNode): OrganizationNode {
  if (root.key === id) return change(root);
  let changed = false;
  const children = root.children.map((child) => {
    const next = updateNode(child, id, change);
    if (next !== child) changed = true;
    return next;
  });
  return changed ? { ...root, children } : root;
}

/** Insert a new child under its parent in name order (docs/product.md, "Flows and states"). */
export function insertNode(root: OrganizationNode, parentId: string, node: OrganizationNode): OrganizationNode {
  return updateNode(root, parentId, (parent) => ({ ...parent, children: [...parent.children, node].sort(byName) }));
}

/** Remove a node (and its subtree). */
export function removeNode(root: OrganizationNode, id: string): OrganizationNode {
  const visit = (node: OrganizationNode): OrganizationNode => {
    if (!node.children.some((c) => c.key === id)) {
      let changed = false;
      const children = node.children.map((c) => {
        const next = visit(c);
        if (next !== c) changed = true;
        return next;
      });
      return changed ? { ...node, children } : node;
    }
    return { ...node, children: node.children.filter((c) => c.key !== id) };
  };
  return visit(root);
}

/** Rename a node and keep its siblings in name order. */
export function renameNode(root: OrganizationNode, id: string, label: string, parentId: string | null): OrganizationNode {
  const renamed = updateNode(root, id, (node) => ({ ...node, label }));
  if (!parentId) return renamed;
  return updateNode(renamed, parentId, (parent) => ({ ...parent, children: [...parent.children].sort(byName) }));
}

/** Add `delta` to a node's member or pending-invitation count. */
export function changeCount(root: OrganizationNode, id: string, field: 'members' | 'pending_invitations', delta: number): OrganizationNode {
  return updateNode(root, id, (node) => ({ ...node, [field]: Math.max(0, node[field] + delta) }));
}

const mapSubtree = (node: OrganizationNode, change: (n: OrganizationNode) => OrganizationNode): OrganizationNode => {
  const changed = change(node);
  return { ...changed, children: changed.children.map((c) => mapSubtree(c, change)) };
};

/**
 * Switching can-create-sub-organizations (docs/product.md, "Flows and states"): off also switches off
 * sub-organizations-can-have-children for the node and all its descendants.
 */
export function setCanCreateSubOrganizations(root: OrganizationNode, id: string, value: boolean): OrganizationNode {
  return updateNode(root, id, (node) =>
    value
      ? { ...node, can_create_sub_organization: true }
      : mapSubtree({ ...node, can_create_sub_organization: false }, (n) => ({ ...n, sub_organization_can_have_children: false })),
  );
}

/** Changing app availability (docs/product.md, "Flows and states"): the node gets `apps`; each descendant keeps only those. */
export function setApps(root: OrganizationNode, id: string, apps: string[]): OrganizationNode {
  const allowed = new Set(apps);
  return updateNode(root, id, (node) => ({
    ...node,
    apps: [...apps],
    children: node.children.map((c) => mapSubtree(c, (n) => ({ ...n, apps: n.apps.filter((a) => allowed.has(a)) }))),
  }));
}
