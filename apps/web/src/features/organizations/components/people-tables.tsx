import { Badge, Group, Text } from '@mantine/core';
import {
  IconDeviceMobileOff,
  IconLifebuoy,
  IconLogout,
  IconMailForward,
  IconShieldCheck,
  IconShieldCog,
  IconTrash,
  IconX,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { Invitation, OrganizationMember } from '@partner-portal/contracts';
import { useFormatDate, type DateValue } from '@/lib/dates';
import { rightInWords } from '@/lib/rights-in-words';
import { LastSignIn } from './last-sign-in';
import { PeopleTable, RowActions, type PeopleColumn, type PeopleList } from './people-table';
import classes from './people-tables.module.css';

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

type MemberHandler = 'onEditRights' | 'onResetFactors' | 'onRemove' | 'onSignOut' | 'onSupport';

const MEMBER_ACTIONS: ActionSpec<MemberHandler>[] = [
  { label: 'org_edit_rights_of', tip: 'org_edit_rights', own: 'org_own_rights_reason', Icon: IconShieldCog, on: 'onEditRights' },
  {
    label: 'membersUi.reset_factors_of',
    tip: 'membersUi.reset_factors',
    own: 'membersUi.reset_factors_own_reason',
    color: 'red',
    Icon: IconDeviceMobileOff,
    on: 'onResetFactors',
  },
  { label: 'org_remove_user_of', tip: 'org_remove_user', own: 'cannot_remove_yourself', color: 'red', Icon: IconTrash, on: 'onRemove' },
  { label: 'adm_sign_out_of', tip: 'adm_sign_out', own: 'adm_sign_out_own_reason', color: 'red', Icon: IconLogout, on: 'onSignOut' },
  // a support session as the member (docs/security.md, "Support sessions")
  { label: 'supportUi.action_of', tip: 'supportUi.action', own: 'supportUi.own_reason', Icon: IconLifebuoy, on: 'onSupport' },
];

const INVITATION_ACTIONS: ActionSpec<'onResend' | 'onRevoke'>[] = [
  { label: 'org_resend_of', tip: 'org_resend_invitation', Icon: IconMailForward, on: 'onResend' },
  { label: 'org_revoke_of', tip: 'org_revoke_invitation', color: 'red', Icon: IconX, on: 'onRevoke' },
];

/**
 * A row's actions by their specs, each named with the row's address; on the user's `own` row, those
 * with a reason are refused; so are those given a reason in `refused` (already translated).
 */
function SpecifiedActions<T extends { email_address: string }, H extends string>({
  row,
  specs,
  handlers,
  own = false,
  refused = {},
}: {
  row: T;
  specs: ActionSpec<H>[];
  handlers: Record<H, (row: T) => void>;
  own?: boolean;
  refused?: Partial<Record<H, string | undefined>>;
}) {
  const { t } = useTranslation();
  return (
    <RowActions
      actions={specs.map(({ label, tip, own: ownReason, color, Icon, on }) => ({
        label: t(label, { email: row.email_address }),
        tip: t(tip),
        reason: own && ownReason ? t(ownReason) : refused[on],
        color,
        icon: <Icon size={18} aria-hidden />,
        onClick: () => handlers[on](row),
      }))}
    />
  );
}

/** A column of an invitation's dates, each on one line. */
const invitationDateColumn = <T,>(
  header: string,
  day: (row: T) => DateValue,
  formatDate: (value: DateValue) => string,
): PeopleColumn<T> => ({
  header,
  cell: (row) => formatDate(day(row)),
  className: classes.date,
});

/** Whether a member has a second factor (told to userManagers only: nothing shown without it); the words carry it, the icon only adds to them. */
function SecondFactorMark({ member }: { member: OrganizationMember }) {
  const { t } = useTranslation();
  if (member.has_second_factor === undefined) return null;
  return member.has_second_factor ? (
    <Group gap={4} wrap="nowrap" component="span">
      <IconShieldCheck size={16} color="var(--mantine-color-green-8)" aria-hidden />
      <Text span size="sm">
        {t('membersUi.second_factor_set')}
      </Text>
    </Group>
  ) : (
    <Text span size="sm" c="gray.7">
      {t('membersUi.second_factor_none')}
    </Text>
  );
}

/** The organization's users (or the search's): name, organization when searching, last sign-in, second factor; rights, second-factor reset, removal, sign-out. */
export function UsersTable({
  ownEmail,
  rightsBeyond,
  onEditRights,
  onResetFactors,
  onRemove,
  onSignOut,
  onSupport,
  supportRefusal,
  ...list
}: PeopleList<OrganizationMember> & {
  /** the signed-in user's address: their own row offers no rights editing and no removal */
  ownEmail: string;
  /** the rights a member holds that the signed-in user does not: then no removal and no second-factor reset (as the server refuses) */
  rightsBeyond: (m: OrganizationMember) => string[];
  onEditRights: (m: OrganizationMember) => void;
  /** reset the member's second factors (a lost phone; docs/second-factors.md) */
  onResetFactors: (m: OrganizationMember) => void;
  onRemove: (m: OrganizationMember) => void;
  /** sign the member out everywhere (docs/decisions/018-the-administrators-day.md) */
  onSignOut: (m: OrganizationMember) => void;
  /** start a support session as the member (docs/security.md, "Support sessions") */
  onSupport: (m: OrganizationMember) => void;
  /** why the signed-in user may not support the member (translated), beyond holding fewer rights */
  supportRefusal: (m: OrganizationMember) => string | undefined;
}) {
  const { t } = useTranslation();
  const { searching } = list;
  const name = (member: OrganizationMember) => [member.first_name, member.last_name].filter(Boolean).join(' ');
  const organizationColumn: PeopleColumn<OrganizationMember> = {
    header: t('org_col_organization'),
    cell: (member) => member.organization_name,
  };
  const lastSignInColumn: PeopleColumn<OrganizationMember> = {
    header: t('adm_last_sign_in'),
    cell: (member) => <LastSignIn value={member.last_sign_in_at} />,
    className: classes.date,
  };
  // told only to userManagers: the column when the answer carries it
  const secondFactorColumns: PeopleColumn<OrganizationMember>[] = list.rows.some((m) => m.has_second_factor !== undefined)
    ? [{ header: t('membersUi.col_second_factor'), cell: (member) => <SecondFactorMark member={member} /> }]
    : [];
  const refused = (member: OrganizationMember): Partial<Record<MemberHandler, string>> => {
    const beyond = rightsBeyond(member);
    const moreRights = beyond.length
      ? `${t('cannot_manage_member_with_more_rights')}: ${beyond.map((code) => rightInWords(code, t)).join(', ')}`
      : undefined;
    const noFactor = member.has_second_factor === false ? t('membersUi.reset_factors_none_reason') : undefined;
    return {
      onRemove: moreRights,
      onSignOut: moreRights,
      onResetFactors: moreRights ?? noFactor,
      onSupport: moreRights ?? supportRefusal(member),
    };
  };
  return (
    <PeopleTable
      {...list}
      kind="user"
      rowKey={(member) => member.id}
      columns={[
        { header: t('org_col_name'), cell: name },
        ...(searching ? [organizationColumn] : []),
        lastSignInColumn,
        ...secondFactorColumns,
      ]}
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
          {member.has_second_factor !== undefined ? (
            <Group gap="xs">
              <Text size="sm" c="gray.7">
                {t('membersUi.col_second_factor')}:
              </Text>
              <SecondFactorMark member={member} />
            </Group>
          ) : null}
        </>
      )}
      actions={(member) => (
        <SpecifiedActions
          row={member}
          specs={MEMBER_ACTIONS}
          handlers={{ onEditRights, onResetFactors, onRemove, onSignOut, onSupport }}
          own={member.email_address.toLowerCase() === ownEmail.toLowerCase()}
          refused={refused(member)}
        />
      )}
    />
  );
}

const STATE_COLOR: Record<string, string> = { PENDING: 'blue', ACCEPTED: 'green', REVOKED: 'gray', EXPIRED: 'red', REJECTED: 'red' };
/** text darker than the light variant's where that falls short of contrast (an expired invitation is listed for the manager to act on) */
const STATE_TEXT: Record<string, string> = { EXPIRED: 'red.9' };

/** An invitation's state: the whole word, never cut (docs/design.md, badges). */
function StateBadge({ invitation }: { invitation: Invitation }) {
  const { t } = useTranslation();
  return (
    <Badge
      variant="light"
      color={STATE_COLOR[invitation.invitation_state] ?? 'gray'}
      c={STATE_TEXT[invitation.invitation_state]}
      autoContrast
      className={classes.badge}
    >
      {t(`invitation_status_${invitation.invitation_state.toLowerCase()}`)}
    </Badge>
  );
}

/** The organization's invitations (or the search's): state and dates; resend and revoke while pending or expired. */
export function InvitationsTable({
  onResend,
  onRevoke,
  ...list
}: PeopleList<Invitation> & { onResend: (i: Invitation) => void; onRevoke: (i: Invitation) => void }) {
  const { t } = useTranslation();
  const formatDate = useFormatDate();
  const { searching } = list;
  const columns: PeopleColumn<Invitation>[] = [
    { header: t('org_col_state'), cell: (invitation) => <StateBadge invitation={invitation} /> },
    invitationDateColumn(t('org_col_created'), (invitation) => invitation.created_at, formatDate),
    invitationDateColumn(t('org_col_last_sent'), (invitation) => invitation.last_sent_at, formatDate),
    invitationDateColumn(t('org_col_expires'), (invitation) => invitation.expires_at, formatDate),
    ...(searching ? [{ header: t('org_col_organization'), cell: (invitation: Invitation) => invitation.organization_name }] : []),
  ];
  return (
    <PeopleTable
      {...list}
      kind="invitation"
      rowKey={(invitation) => invitation.invitation_id}
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
            {t('org_col_created')}: {formatDate(invitation.created_at)} · {t('org_col_last_sent')}: {formatDate(invitation.last_sent_at)}
            {invitation.expires_at ? ` · ${t('org_col_expires')}: ${formatDate(invitation.expires_at)}` : ''}
          </Text>
        </>
      )}
      actions={(invitation) =>
        invitation.invitation_state === 'PENDING' || invitation.invitation_state === 'EXPIRED' ? (
          <SpecifiedActions row={invitation} specs={INVITATION_ACTIONS} handlers={{ onResend, onRevoke }} />
        ) : null
      }
    />
  );
}
