import { InvitationPage } from '../components/invitation-page';

/** /invitation/{invitationId}?code= : registration with a password (spec §2). */
export function AcceptInvitationPage() {
  return <InvitationPage external={false} />;
}
