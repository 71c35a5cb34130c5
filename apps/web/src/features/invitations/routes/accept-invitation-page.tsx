import { InvitationPage } from '../components/invitation-page';

/** /invitation/{invitationId}?code= : registration with a password (docs/product.md, "Screens"). */
export function AcceptInvitationPage() {
  return <InvitationPage external={false} />;
}
