import type { UserInfo } from '@partner-portal/contracts';

export type IntegrationPanel = 'service-accounts' | 'scim' | 'webhooks' | 'audit-streams';

/**
 * The panels the signed-in user may use, as the server authorizes their calls
 * (apps/server/src/modules/*: organizationForActor's role): service accounts for either manager
 * role, SCIM tokens for userManagers, webhooks and audit streams for organizationManagers (the
 * server lets people only make audit streams; a service account does not use this page).
 */
export function integrationPanels(user: Pick<UserInfo, 'userManager' | 'organizationManager'>): IntegrationPanel[] {
  const panels: IntegrationPanel[] = [];
  if (user.userManager || user.organizationManager) panels.push('service-accounts');
  if (user.userManager) panels.push('scim');
  if (user.organizationManager) panels.push('webhooks', 'audit-streams');
  return panels;
}
