import type { z } from 'zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  type createOrganizationResponseSchema,
  type CreateOrganizationRequest,
  type Organization,
  type OrganizationNode,
} from '@partner-portal/contracts';
import { api } from '@/lib/api';
import { insertNode } from '../lib/tree';
import { patchTree } from './cache';
import { organizationQueryOptions } from './get-organization';
import { organizationKeys } from './query-keys';

/** POST /api/organizations → { id } */
export async function createOrganization(body: CreateOrganizationRequest): Promise<{ id: string }> {
  return await api.post<z.infer<typeof createOrganizationResponseSchema>>('/organizations', body);
}

/**
 * Creates a sub-organization of `parent` and puts it into the cached tree in name order: as the
 * server now describes it, or (when that read fails) as synthesized from the request.
 */
export function useCreateOrganization(parent: Organization) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createOrganization,
    onSuccess: async ({ id }, request) => {
      let node: OrganizationNode = {
        key: id,
        label: request.name,
        parent_id: parent.id,
        path: `${parent.path}.${id}`,
        can_create_sub_organization: false,
        sub_organization_can_have_children: false,
        pending_invitations: 0,
        members: 0,
        apps: [],
        allowed_email_domains: parent.allowed_email_domains,
        children: [],
      };
      try {
        const created = await queryClient.fetchQuery(organizationQueryOptions(id));
        node = {
          ...node,
          label: created.name,
          path: created.path,
          can_create_sub_organization: created.can_create_sub_organization,
          sub_organization_can_have_children: created.sub_organization_can_have_children,
          apps: created.apps.map((a) => a.client_id),
          allowed_email_domains: created.allowed_email_domains,
        };
      } catch {
        // the synthesized node stands in until the next load
      }
      patchTree(queryClient, (root) => insertNode(root, parent.id, node));
      void queryClient.invalidateQueries({ queryKey: organizationKeys.detail(parent.id) });
    },
  });
}
