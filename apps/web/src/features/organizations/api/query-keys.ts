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

/** Dealers' own identity (components/identity): verified domains, SSO connections, access requests. */
export const identityKeys = {
  all: ['dealer-identity'] as const,
  domainLists: () => [...identityKeys.all, 'domains'] as const,
  domains: (organizationId: string) => [...identityKeys.domainLists(), organizationId] as const,
  connectionLists: () => [...identityKeys.all, 'sso-connections'] as const,
  connections: (organizationId: string) => [...identityKeys.connectionLists(), organizationId] as const,
  accessRequestLists: () => [...identityKeys.all, 'access-requests'] as const,
  accessRequests: (organizationId: string) => [...identityKeys.accessRequestLists(), organizationId] as const,
};

/** Integrations (components/integrations): service accounts, SCIM tokens, webhooks and their deliveries. */
export const integrationKeys = {
  all: ['integrations'] as const,
  serviceAccountLists: () => [...integrationKeys.all, 'service-accounts'] as const,
  serviceAccounts: (organizationId: string) => [...integrationKeys.serviceAccountLists(), organizationId] as const,
  scimTokenLists: () => [...integrationKeys.all, 'scim-tokens'] as const,
  scimTokens: (organizationId: string) => [...integrationKeys.scimTokenLists(), organizationId] as const,
  webhookLists: () => [...integrationKeys.all, 'webhooks'] as const,
  webhooks: (organizationId: string) => [...integrationKeys.webhookLists(), organizationId] as const,
  deliveries: (webhookId: string) => [...integrationKeys.all, 'deliveries', webhookId] as const,
};

export const portalKeys = {
  features: () => ['portal', 'features'] as const,
};
