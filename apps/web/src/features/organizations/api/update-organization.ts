import { useMutation } from '@tanstack/react-query';
import { updateOrganizationRequestSchema, type UpdateOrganizationRequest } from '@partner-portal/contracts';
import { api } from '@/lib/api';

/** PATCH /api/organizations/{id} { name } */
export { updateOrganizationRequestSchema };

export function updateOrganization({ id, ...body }: UpdateOrganizationRequest & { id: string }): Promise<void> {
  return api.patch(`/organizations/${encodeURIComponent(id)}`, body);
}

export function useUpdateOrganization() {
  return useMutation({ mutationFn: updateOrganization });
}
