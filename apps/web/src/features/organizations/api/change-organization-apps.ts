import type { ChangeOrganizationAppsRequest } from '@partner-portal/contracts';
import { api } from '@/lib/api';
import { setApps } from '../lib/tree';
import { useTreeChange } from './cache';

/** PATCH /api/organizations/{id}/apps { client_ids } (204) */
export function changeOrganizationApps({ id, ...body }: ChangeOrganizationAppsRequest & { id: string }): Promise<void> {
  return api.patch(`/organizations/${encodeURIComponent(id)}/apps`, body);
}

/** Changes the organization's apps; in the tree its descendants keep only those (lib/tree.ts, setApps). */
export const useChangeOrganizationApps = () =>
  useTreeChange(changeOrganizationApps, (root, { id, client_ids }) => setApps(root, id, client_ids));
