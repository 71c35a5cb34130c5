import { queryOptions, useQuery } from '@tanstack/react-query';
import { organizationNodeSchema, type OrganizationNode } from '@partner-portal/contracts';
import { api } from '@/lib/api';
import { organizationKeys } from './query-keys';

/** GET /api/organizations/tree: the actor's organization as root, with its whole subtree. */
export const organizationTreeSchema = organizationNodeSchema;

export async function getOrganizationTree(signal?: AbortSignal): Promise<OrganizationNode> {
  // the tree can hold 10,000 nodes: it is trusted as typed rather than parsed node by node
  return api.get<OrganizationNode>('/organizations/tree', { signal });
}

export const organizationTreeQueryOptions = () =>
  queryOptions({ queryKey: organizationKeys.tree(), queryFn: ({ signal }) => getOrganizationTree(signal), staleTime: Infinity });

export function useOrganizationTree() {
  return useQuery(organizationTreeQueryOptions());
}
