import { useMutation } from '@tanstack/react-query';
import { changeOrganizationAppsRequestSchema, type ChangeOrganizationAppsRequest } from '@partner-portal/contracts';
import { api } from '@/lib/api';

/** PATCH /api/organizations/{id}/apps { client_ids } (204) */
export { changeOrganizationAppsRequestSchema };

export function changeOrganizationApps({ id, ...body }: ChangeOrganizationAppsRequest & { id: string }): Promise<void> {
  return api.patch(`/organizations/${encodeURIComponent(id)}/apps`, body);
}

export function useChangeOrganizationApps() {
  return useMutation({ mutationFn: changeOrganizationApps });
}
