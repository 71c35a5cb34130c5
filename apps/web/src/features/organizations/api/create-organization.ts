import { useMutation } from '@tanstack/react-query';
import {
  createOrganizationRequestSchema,
  createOrganizationResponseSchema,
  type CreateOrganizationRequest,
} from '@partner-portal/contracts';
import { api } from '@/lib/api';

/** POST /api/organizations → { id } */
export { createOrganizationRequestSchema };

export async function createOrganization(body: CreateOrganizationRequest): Promise<{ id: string }> {
  return createOrganizationResponseSchema.parse(await api.post<unknown>('/organizations', body));
}

export function useCreateOrganization() {
  return useMutation({ mutationFn: createOrganization });
}
