import type { ComponentType } from 'react';
import type { AccessRequest, Organization, SsoConnection, UserInfo } from '@partner-portal/contracts';

/** The one modal the "Domains and sign-in" section may show at a time, with what it acts on. */
export type IdentityModal =
  | { type: 'add-domain' }
  | { type: 'delete-domain'; domain: string }
  | { type: 'add-connection' }
  | { type: 'edit-connection'; connection: SsoConnection }
  | { type: 'delete-connection'; connection: SsoConnection }
  /** switch a connection on or off: who it serves is shown first */
  | { type: 'switch-connection'; connection: SsoConnection; active: boolean }
  | { type: 'approve'; request: AccessRequest }
  | { type: 'decline'; request: AccessRequest };

/**
 * The dialog that approves an access request. Approving invites into the organization tree (with
 * rights, into an organization of the subtree): the organizations feature, which shows this
 * section, hands it in (features/organizations/components/approve-request-modal.tsx).
 */
export type ApproveRequestDialog = ComponentType<{
  organization: Organization;
  user: UserInfo;
  request: AccessRequest;
  onClose: () => void;
  onApproved: () => void;
}>;

/** What the section is given by the page that shows it. */
export interface IdentitySectionProps {
  organization: Organization;
  user: UserInfo;
  /** an organization's name; null when the side tree does not have it (ancestors above the user's own organization) */
  organizationName: (id: string) => string | null;
  ApproveRequest: ApproveRequestDialog;
}

/** What the section's panels share: the selected organization, who looks, names of organizations, and the modal opener. */
export interface PanelProps {
  organization: Organization;
  user: UserInfo;
  /** an organization's name; null when the side tree does not have it (ancestors above the user's own organization) */
  organizationName: (id: string) => string | null;
  open: (modal: IdentityModal) => void;
}

/** The connection a test sign-in was started with, kept for the page it comes back to. */
const TEST_KEY = 'pp.ssoTest';

/** Before a test sign-in: remember the connection's name (the answer carries only an error key). */
export function rememberTestedConnection(connection: SsoConnection): void {
  sessionStorage.setItem(TEST_KEY, JSON.stringify({ id: connection.id, name: connection.name }));
}

/** The name of the connection whose test sign-in came back. */
export function testedConnectionName(): string | null {
  try {
    const value = JSON.parse(sessionStorage.getItem(TEST_KEY) ?? 'null') as { name?: unknown } | null;
    return typeof value?.name === 'string' ? value.name : null;
  } catch {
    return null;
  }
}

/** The test's outcome has been shown: its connection is forgotten. */
export function forgetTestedConnection(): void {
  sessionStorage.removeItem(TEST_KEY);
}
