/**
 * Every query key of this feature, from one factory: a mutation's hook invalidates by these
 * prefixes, so a key is never spelled out twice.
 */
export const organizationKeys = {
  all: ['organizations'] as const,
  tree: () => [...organizationKeys.all, 'tree'] as const,
  details: () => [...organizationKeys.all, 'detail'] as const,
  detail: (id: string) => [...organizationKeys.details(), id] as const,
  secondFactorPolicies: () => [...organizationKeys.all, 'second-factor-policy'] as const,
  secondFactorPolicy: (id: string) => [...organizationKeys.secondFactorPolicies(), id] as const,
};

export const memberKeys = {
  all: ['members'] as const,
  searches: () => [...memberKeys.all, 'search'] as const,
  search: (organizationId: string, q: string) => [...memberKeys.searches(), organizationId, q] as const,
  rights: (memberId: string) => [...memberKeys.all, 'rights', memberId] as const,
};

export const portalKeys = {
  features: () => ['portal', 'features'] as const,
};
