import { Badge, Group, Text } from '@mantine/core';
import { IconLogout, IconMailForward, IconShieldCog, IconTrash, IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { Invitation, OrganizationMember } from '@partner-portal/contracts';
import { formatInvitationDate } from '../lib/format';
import { LastSignIn } from './member-access';
import { PeopleTable, RowActions, type PeopleColumn } from './people-table';
import classes from './people-tables.module.css';

/** The narrowest sections that still show their columns without sideways scrolling in every language. */
const USERS_TABLE_MIN_WIDTH = 680;
const INVITATIONS_TABLE_MIN_WIDTH = 760;

/** A row action: its accessible name and tooltip (translation keys), and which handler of the table it calls. */
interface ActionSpec<Handler> {
  label: string;
  tip: string;
  /** why not on the user's own row */
  own?: string;
  color?: string;
  Icon: typeof IconX;
  on: Handler;
}

const MEMBER_ACTIONS: ActionSpec<'onEditRights' | 'onRemove' | 'onSignOut'>[] = [
  { label: 'org_edit_rights_of', tip: 'org_edit_rights', own: 'org_own_rights_reason', Icon: IconShieldCog, on: 'onEditRights' },
  { label: 'org_remove_user_of', tip: 'org_remove_user', own: 'cannot_remove_yourself', color: 'red', Icon: IconTrash, on: 'onRemove' },
  { label: 'adm_sign_out_of', tip: 'adm_sign_out', own: 'adm_sign_out_own_reason', color: 'red', Icon: IconLogout, on: 'onSignOut' },
];

const INVITATION_ACTIONS: ActionSpec<'onResend' | 'onRevoke'>[] = [
  { label: 'org_resend_of', tip: 'org_resend_invitation', Icon: IconMailForward, on: 'onResend' },
  { label: 'org_revoke_of', tip: 'org_revoke_invitation', color: 'red', Icon: IconX, on: 'onRevoke' },
];

interface TableProps<T> {
  rows: T[];
  searching: boolean;
  showAll: boolean;
  onToggleAll: () => void;
  canManage: boolean;
}

/** The organization's users (or the search's): name, organization when searching, last sign-in; rights, removal, sign-out. */
export function UsersTable({
  rows,
  searching,
  showAll,
  onToggleAll,
  canManage,
  ownEmail,
  onEditRights,
  onRemove,
  onSignOut,
}: TableProps<OrganizationMember> & {
  /** the signed-in user's address: their own row offers no rights editing and no removal */
  ownEmail: string;
  onEditRights: (m: OrganizationMember) => void;
  onRemove: (m: OrganizationMember) => void;
  /** sign the member out everywhere (docs/decisions/018-the-administrators-day.md) */
  onSignOut: (m: OrganizationMember) => void;
}) {
  const { t } = useTranslation();
  const name = (member: OrganizationMember) => [member.first_name, member.last_name].filter(Boolean).join(' ');
  const organizationColumn: PeopleColumn<OrganizationMember> = {
    header: t('org_col_organization'),
    cell: (member) => member.organization_name,
  };
  const handlers = { onEditRights, onRemove, onSignOut };
  const actions = (member: OrganizationMember) => {
    const own = member.email_address.toLowerCase() === ownEmail.toLowerCase();
    return (
      <RowActions
        actions={MEMBER_ACTIONS.map(({ label, tip, own: ownReason, color, Icon, on }) => ({
          label: t(label, { email: member.email_address }),
          tip: t(tip),
          reason: own && ownReason ? t(ownReason) : undefined,
          color,
          icon: <Icon size={18} aria-hidden />,
          onClick: () => handlers[on](member),
        }))}
      />
    );
  };
  const lastSignInColumn: PeopleColumn<OrganizationMember> = {
    header: t('adm_last_sign_in'),
    cell: (member) => <LastSignIn value={member.last_sign_in_at} />,
    className: classes.date,
  };
  return (
    <PeopleTable
      id="org-users-table"
      headingId="org-users-heading"
      title={t('org_users')}
      count={t('org_user_count', { count: rows.length })}
      empty={searching ? t('org_no_match_users') : t('org_no_users')}
      minWidth={USERS_TABLE_MIN_WIDTH}
      rows={rows}
      rowKey={(member) => member.id}
      searching={searching}
      showAll={showAll}
      onToggleAll={onToggleAll}
      columns={[{ header: t('org_col_name'), cell: name }, ...(searching ? [organizationColumn] : []), lastSignInColumn]}
      details={(member) => (
        <>
          {name(member) ? <Text size="sm">{name(member)}</Text> : null}
          {searching && member.organization_name ? (
            <Text size="sm" c="gray.7">
              {member.organization_name}
            </Text>
          ) : null}
          <Text size="sm" c="gray.7">
            {t('adm_last_sign_in')}: <LastSignIn value={member.last_sign_in_at} />
          </Text>
        </>
      )}
      actions={canManage ? actions : undefined}
    />
  );
}

const STATE_COLOR: Record<string, string> = { PENDING: 'blue', ACCEPTED: 'green', REVOKED: 'gray', EXPIRED: 'orange', REJECTED: 'red' };

/** An invitation's state: the whole word, never cut (docs/design.md, badges). */
function StateBadge({ invitation }: { invitation: Invitation }) {
  const { t } = useTranslation();
  return (
    <Badge variant="light" color={STATE_COLOR[invitation.invitation_state] ?? 'gray'} autoContrast className={classes.badge}>
      {t(`invitation_status_${invitation.invitation_state.toLowerCase()}`)}
    </Badge>
  );
}

/** The organization's invitations (or the search's): state and dates; resend and revoke while pending. */
export function InvitationsTable({
  rows,
  searching,
  showAll,
  onToggleAll,
  canManage,
  onResend,
  onRevoke,
}: TableProps<Invitation> & { onResend: (i: Invitation) => void; onRevoke: (i: Invitation) => void }) {
  const { t } = useTranslation();
  const columns: PeopleColumn<Invitation>[] = [
    { header: t('org_col_state'), cell: (invitation) => <StateBadge invitation={invitation} /> },
    { header: t('org_col_created'), cell: (invitation) => formatInvitationDate(invitation.created_at), className: classes.date },
    { header: t('org_col_last_sent'), cell: (invitation) => formatInvitationDate(invitation.last_sent_at), className: classes.date },
    { header: t('org_col_expires'), cell: (invitation) => formatInvitationDate(invitation.expires_at), className: classes.date },
    ...(searching ? [{ header: t('org_col_organization'), cell: (invitation: Invitation) => invitation.organization_name }] : []),
  ];
  const handlers = { onResend, onRevoke };
  const actions = (invitation: Invitation) =>
    invitation.invitation_state === 'PENDING' ? (
      <RowActions
        actions={INVITATION_ACTIONS.map(({ label, tip, color, Icon, on }) => ({
          label: t(label, { email: invitation.email_address }),
          tip: t(tip),
          color,
          icon: <Icon size={18} aria-hidden />,
          onClick: () => handlers[on](invitation),
        }))}
      />
    ) : null;
  return (
    <PeopleTable
      id="org-invitations-table"
      headingId="org-invitations-heading"
      title={t('org_invitations')}
      count={t('org_invitation_count', { count: rows.length })}
      empty={searching ? t('org_no_match_invitations') : t('org_no_invitations')}
      minWidth={INVITATIONS_TABLE_MIN_WIDTH}
      rows={rows}
      rowKey={(invitation) => invitation.invitation_id}
      searching={searching}
      showAll={showAll}
      onToggleAll={onToggleAll}
      columns={columns}
      details={(invitation) => (
        <>
          <Group gap="xs">
            <StateBadge invitation={invitation} />
            {searching && invitation.organization_name ? (
              <Text size="sm" c="gray.7">
                {invitation.organization_name}
              </Text>
            ) : null}
          </Group>
          <Text size="xs" c="gray.7">
            {t('org_col_created')}: {formatInvitationDate(invitation.created_at)} · {t('org_col_last_sent')}:{' '}
            {formatInvitationDate(invitation.last_sent_at)}
            {invitation.expires_at ? ` · ${t('org_col_expires')}: ${formatInvitationDate(invitation.expires_at)}` : ''}
          </Text>
        </>
      )}
      actions={canManage ? actions : undefined}
    />
  );
}
