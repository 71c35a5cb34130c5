import type { OrganizationDomain, OrganizationNode, SsoConnection } from '@partner-portal/contracts';

/**
 * Pure helpers of the "Domains and sign-in" section (features/identity): names of the
 * organizations a domain or connection comes from, the organizations an access request may be
 * approved into, which domains a connection may use, and the outcome of a manager's test sign-in.
 */

/** The node with the given id in the side tree, or null. */
export function findNode(root: OrganizationNode | undefined, id: string): OrganizationNode | null {
  if (!root) return null;
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.key === id) return node;
    stack.push(...node.children);
  }
  return null;
}

/** An organization that can be chosen, named by its path of names below the chosen root ("Dealer › Branch"). */
export interface OrganizationOption {
  value: string;
  label: string;
  apps: string[];
  isRoot: boolean;
}

/** The organization `id` and everything below it, in tree order, each named by its path from `id`. */
export function subtreeOptions(root: OrganizationNode | undefined, id: string): OrganizationOption[] {
  const top = findNode(root, id);
  if (!top) return [];
  const options: OrganizationOption[] = [];
  const visit = (node: OrganizationNode, names: string[]) => {
    const path = [...names, node.label];
    options.push({ value: node.key, label: path.join(' › '), apps: node.apps, isRoot: node.parent_id === null });
    for (const child of node.children) visit(child, path);
  };
  visit(top, []);
  return options;
}

/** Where a domain or connection comes from, seen from the selected organization. */
export type Origin = 'own' | 'inherited' | 'configured';

export function originOf(item: { organization_id: string; configured?: boolean | undefined }, organizationId: string): Origin {
  if (item.configured) return 'configured';
  return item.organization_id === organizationId ? 'own' : 'inherited';
}

/** The verified domains at or above the organization (its own and its ancestors'), which its connections may use. */
export function verifiedDomains(domains: readonly OrganizationDomain[]): string[] {
  return [...new Set(domains.filter((d) => d.verified).map((d) => d.domain))].sort();
}

/** The own connections first, then the inherited, then the configured one; by name within each. */
export function sortConnections(connections: readonly SsoConnection[], organizationId: string): SsoConnection[] {
  const rank: Record<Origin, number> = { own: 0, inherited: 1, configured: 2 };
  return [...connections].sort(
    (a, b) =>
      rank[originOf(a, organizationId)] - rank[originOf(b, organizationId)] ||
      a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }),
  );
}

/** The own domains first (unverified ones on top: they need doing), then the inherited ones; by name within each. */
export function sortDomains(domains: readonly OrganizationDomain[], organizationId: string): OrganizationDomain[] {
  const rank = (d: OrganizationDomain) => (d.organization_id === organizationId ? (d.verified ? 1 : 0) : 2);
  return [...domains].sort((a, b) => rank(a) - rank(b) || a.domain.localeCompare(b.domain));
}

// the test sign-in's outcome in the address: a module of its own, read by the manage page before
// this section's code has loaded (components/administrator-tools.tsx)
export { readSsoTest, SSO_TEST_PARAMS, type SsoTestOutcome } from './sso-test';
