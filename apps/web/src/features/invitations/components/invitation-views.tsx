import type { ReactNode } from 'react';
import { Anchor, Button, Center, Loader, Text } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Invitation } from '@partner-portal/contracts';
import { TitledStack } from '@/components/titled-stack';

export function InvitationLoading() {
  const { t } = useTranslation();
  return (
    <Center py="xl">
      <Loader role="status" aria-label={t('inv_loading')} />
    </Center>
  );
}

/** An invitation page that tells the visitor something: its title, its text, and what follows. */
function InvitationMessage({ title, text, children }: { title: string; text: string; children?: ReactNode }) {
  return (
    <TitledStack title={title} order={1} size="h2" gap="md">
      <Text>{text}</Text>
      {children}
    </TitledStack>
  );
}

/** The invitation could not be loaded (unknown, wrong code). */
export function UnknownInvitation() {
  const { t } = useTranslation();
  return <InvitationMessage title={t('inv_unknown_title')} text={t('inv_unknown_text')} />;
}

/** A logged-in visitor is told to log out first. */
export function LoggedInVisitor() {
  const { t } = useTranslation();
  return (
    <InvitationMessage title={t('inv_logged_in_title')} text={t('inv_logged_in_text')}>
      <Anchor component={Link} to="/logout">
        {t('inv_logout')}
      </Anchor>
    </InvitationMessage>
  );
}

/** The invitation is no longer pending: its state and a contact hint (docs/product.md, "Flows and states"). */
export function NotPendingInvitation({ invitation }: { invitation: Invitation }) {
  const { t } = useTranslation();
  const state = invitation.invitation_state.toLowerCase();
  return (
    <InvitationMessage
      title={t('inv_not_pending_title')}
      text={
        state === 'revoked' ? t('inv_revoked_text') : t('inv_state_text', { context: state, invitation_state: t(`inv_state_${state}`) })
      }
    >
      {state === 'accepted' ? (
        <>
          <Text>{t('inv_accepted_login_text')}</Text>
          <Button component={Link} to="/login" state={{ registeredEmail: invitation.email_address }}>
            {t('inv_go_to_login')}
          </Button>
        </>
      ) : null}
      <Text c="gray.7">{t('inv_contact_hint')}</Text>
    </InvitationMessage>
  );
}
