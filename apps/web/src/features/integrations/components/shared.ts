import type { AuditStream, Organization, ScimToken, ServiceAccount, UserInfo, Webhook } from '@partner-portal/contracts';

/** The one modal the "Integrations" section may show at a time, with what it acts on. */
export type IntegrationModal =
  | { type: 'create-service-account' }
  | { type: 'delete-service-account'; account: ServiceAccount }
  | { type: 'create-scim-token' }
  | { type: 'delete-scim-token'; token: ScimToken }
  | { type: 'create-webhook' }
  | { type: 'edit-webhook'; webhook: Webhook }
  | { type: 'delete-webhook'; webhook: Webhook }
  | { type: 'create-audit-stream' }
  | { type: 'replay-audit-stream'; stream: AuditStream }
  | { type: 'delete-audit-stream'; stream: AuditStream };

/** What the section's panels share: the selected organization, who looks, and the modal opener. */
export interface PanelProps {
  organization: Organization;
  user: UserInfo;
  open: (modal: IntegrationModal) => void;
}
