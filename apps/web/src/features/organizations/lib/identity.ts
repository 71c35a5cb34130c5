import type { OrganizationDomain, OrganizationNode, SsoConnection } from '@partner-portal/contracts';

/**
 * Pure helpers of the "Domains and sign-in" section (components/identity): names of the
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

/** The outcome of a manager's test sign-in, as the callback left it in the address. */
export type SsoTestOutcome = { ok: true; email: string } | { ok: false; key: string };

/** The parameters a test sign-in leaves in the address (removed once read). */
export const SSO_TEST_PARAMS = ['sso_test', 'sso_test_email'] as const;

/** Reads ?sso_test=ok&sso_test_email=… or ?sso_test=<error key>; null when there is none (or it is no key). */
export function readSsoTest(params: URLSearchParams): SsoTestOutcome | null {
  const value = params.get('sso_test');
  if (!value) return null;
  if (value === 'ok') return { ok: true, email: (params.get('sso_test_email') ?? '').slice(0, 200) };
  return /^[a-z][a-z0-9_]{0,79}$/.test(value) ? { ok: false, key: value } : { ok: false, key: 'sign_in_error_unknown' };
}
