import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { OrganizationNode } from '@partner-portal/contracts';
import { memberKeys, organizationKeys } from './query-keys';

/** Patch the cached side tree in place (it loads once: a tree of 10,000 nodes is not refetched after each change). */
export function patchTree(queryClient: QueryClient, change: (root: OrganizationNode) => OrganizationNode): void {
  queryClient.setQueryData<OrganizationNode>(organizationKeys.tree(), (root) => (root ? change(root) : root));
}

/** Refetch what a change can show up in: the organizations' details and the member searches. */
export function refreshPeople(queryClient: QueryClient): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: organizationKeys.details() }),
    queryClient.invalidateQueries({ queryKey: memberKeys.searches() }),
  ]);
}

/** A change to one organization that the cached tree shows: patched in the tree (`change`), then the people refetched. */
export function useTreeChange<Variables>(
  mutationFn: (variables: Variables) => Promise<void>,
  change: (root: OrganizationNode, variables: Variables) => OrganizationNode,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: (_, variables) => {
      patchTree(queryClient, (root) => change(root, variables));
      void refreshPeople(queryClient);
    },
  });
}
