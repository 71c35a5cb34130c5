/**
 * Every query key of this feature, from one factory: a mutation's hook invalidates by these
 * prefixes, so a key is never spelled out twice.
 */
/** Dealers' own identity (this feature): verified domains, SSO connections, access requests. */
export const identityKeys = {
  all: ['dealer-identity'] as const,
  domainLists: () => [...identityKeys.all, 'domains'] as const,
  domains: (organizationId: string) => [...identityKeys.domainLists(), organizationId] as const,
  connectionLists: () => [...identityKeys.all, 'sso-connections'] as const,
  connections: (organizationId: string) => [...identityKeys.connectionLists(), organizationId] as const,
  accessRequestLists: () => [...identityKeys.all, 'access-requests'] as const,
  accessRequests: (organizationId: string) => [...identityKeys.accessRequestLists(), organizationId] as const,
};
