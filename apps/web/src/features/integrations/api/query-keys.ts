/**
 * Every query key of this feature, from one factory: a mutation's hook invalidates by these
 * prefixes, so a key is never spelled out twice.
 */
/** Integrations (this feature): service accounts, SCIM tokens, webhooks and their deliveries. */
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
