import { InvitationPage } from '../components/invitation-page';

/**
 * /invitation-external-identity/{invitationId}?code= : registration without a password; after
 * accepting, the browser goes to the upstream provider to link the account (docs/product.md, "Screens").
 */
export function AcceptExternalInvitationPage() {
  return <InvitationPage external />;
}
