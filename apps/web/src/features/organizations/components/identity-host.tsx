import { lazy } from 'react';
import type { Organization, UserInfo } from '@partner-portal/contracts';
import { IdentitySection } from '@/features/identity/components/identity-section';
import { findNode } from '@/features/identity/lib/identity';
import { useOrganizationTree } from '../api/get-organization-tree';

// approving an access request invites into this feature's tree: loaded when the dialog first opens
const ApproveRequestModal = lazy(() => import('./approve-request-modal').then((m) => ({ default: m.ApproveRequestModal })));

/**
 * The "Domains and sign-in" section (features/identity) as the organization page shows it: with the
 * names of the side tree's organizations and this feature's dialog that approves an access request.
 * Loaded with the section, not with the page.
 */
export function IdentityHost({ organization, user }: { organization: Organization; user: UserInfo }) {
  const tree = useOrganizationTree();
  const organizationName = (id: string) => (id === organization.id ? organization.name : (findNode(tree.data, id)?.label ?? null));
  return (
    <IdentitySection organization={organization} user={user} organizationName={organizationName} ApproveRequest={ApproveRequestModal} />
  );
}
