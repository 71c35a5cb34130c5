import { Fragment, type ReactNode } from 'react';
import { ActionIcon, Badge, Button, Group, Paper, Stack, Table, Text, Title, Tooltip } from '@mantine/core';
import { useElementSize, useMediaQuery } from '@mantine/hooks';
import { IconLogout, IconMailForward, IconShieldCog, IconTrash, IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { TABLE_ROWS_DEFAULT, type Invitation, type OrganizationMember } from '@partner-portal/contracts';
import { formatInvitationDate } from '../lib/format';
import classes from './people-tables.module.css';
import { LastSignIn } from '@/features/organizations/components/member-access';

interface TableProps<T> {
  rows: T[];
  searching: boolean;
  showAll: boolean;
  onToggleAll: () => void;
  canManage: boolean;
}

/** A column after the e-mail address; `className` goes on its cells. */
export interface PeopleColumn<T> {
  header: string;
  cell: (row: T) => ReactNode;
  className?: string | undefined;
}

/** Below this width the tables become one card per row (docs/design.md, tables on phones). */
export const CARDS_QUERY = '(max-width: 40em)';
/** The narrowest sections that still show their columns without sideways scrolling in every language. */
const USERS_TABLE_MIN_WIDTH = 680;
const INVITATIONS_TABLE_MIN_WIDTH = 760;

/**
 * Cards or a table, by the width the section really has (the side tree takes room beside it on
 * tablets); before the first measurement, by the viewport.
 */
function useCards(minWidth: number) {
  const { ref, width } = useElementSize<HTMLElement>();
  const phone = useMediaQuery(CARDS_QUERY, false, { getInitialValueInEffect: false });
  return { ref, cards: width > 0 ? width < minWidth : phone };
}

/** 4 rows unless 'view all'; the toggle only above 4 rows and without a search (docs/product.md, "Screens" and "Limits and constants"). */
function limit<T>(rows: T[], searching: boolean, showAll: boolean): { shown: T[]; toggle: boolean } {
  const toggle = !searching && rows.length > TABLE_ROWS_DEFAULT;
  return { shown: toggle && !showAll ? rows.slice(0, TABLE_ROWS_DEFAULT) : rows, toggle };
}

function ViewAllToggle({ showAll, onToggle, controls }: { showAll: boolean; onToggle: () => void; controls: string }) {
  const { t } = useTranslation();
  return (
    <Button variant="subtle" size="compact-sm" onClick={onToggle} aria-expanded={showAll} aria-controls={controls} mt={4}>
      {showAll ? t('org_view_less') : t('org_view_all')}
    </Button>
  );
}

/**
 * An e-mail address that wraps only after its '@' and before its dots: each part between those
 * points stays on one line (so no break at a hyphen or inside a word either).
 */
export function Address({ value }: { value: string }) {
  const parts = value.split(/(?=\.)|(?<=@)/);
  return (
    <span className={classes.address} data-address>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {i > 0 ? <wbr /> : null}
          <span className={classes.addressPart}>{part}</span>
        </Fragment>
      ))}
    </span>
  );
}

/** A table heading with its count, e.g. "Users · 1 user". */
function CountedHeading({ id, title, count }: { id: string; title: string; count: ReactNode }) {
  return (
    <Title order={3} id={id} size="h4">
      {title}{' '}
      <Text span c="gray.7" size="sm" fw={400}>
        ({count})
      </Text>
    </Title>
  );
}

/** An action that the signed-in user may not take on this row: shown disabled, with the reason. */
function RowAction({
  label,
  tip,
  reason,
  color,
  onClick,
  children,
}: {
  /** the accessible name, naming the row */
  label: string;
  /** the short visible tooltip */
  tip: string;
  reason?: string | undefined;
  color?: string;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <Tooltip label={reason ? `${tip}: ${reason}` : tip} zIndex={1200} multiline maw={260}>
      <ActionIcon
        variant="subtle"
        color={color}
        size="lg"
        aria-label={reason ? `${label} (${reason})` : label}
        aria-disabled={reason ? true : undefined}
        data-disabled={reason ? true : undefined}
        onClick={(e) => {
          if (reason) e.preventDefault();
          else onClick();
        }}
      >
        {children}
      </ActionIcon>
    </Tooltip>
  );
}

/**
 * A table of people (users or invitations): a counted heading, the e-mail address first, then
 * `columns`, then the row actions when the user may manage them; on narrow sections one card per
 * row with the address, `details` and the actions; 4 rows unless 'view all'.
 */
export function PeopleTable<T extends { email_address: string }>({
  id,
  headingId,
  title,
  count,
  empty,
  minWidth,
  rows,
  rowKey,
  searching,
  showAll,
  onToggleAll,
  columns,
  details,
  actions,
}: {
  id: string;
  headingId: string;
  title: string;
  count: string;
  /** shown instead of the table when there are no rows */
  empty: string;
  /** the narrowest section width that shows the table rather than cards */
  minWidth: number;
  rows: T[];
  rowKey: (row: T) => string;
  searching: boolean;
  showAll: boolean;
  onToggleAll: () => void;
  columns: PeopleColumn<T>[];
  /** a card's lines below the address */
  details: (row: T) => ReactNode;
  /** the row's actions; undefined when the user may not manage these rows */
  actions?: ((row: T) => ReactNode) | undefined;
}) {
  const { t } = useTranslation();
  const { ref, cards } = useCards(minWidth);
  const { shown, toggle } = limit(rows, searching, showAll);
  return (
    <section aria-labelledby={headingId} ref={ref}>
      <CountedHeading id={headingId} title={title} count={count} />
      {rows.length === 0 ? (
        <Text c="gray.7" size="sm" py="sm">
          {empty}
        </Text>
      ) : cards ? (
        <Stack component="ul" id={id} gap="xs" className={classes.cards}>
          {shown.map((row) => (
            <Paper component="li" key={rowKey(row)} withBorder p="sm" className={classes.card}>
              <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
                <Stack gap={4} miw={0}>
                  <Text fw={600} size="sm">
                    <Address value={row.email_address} />
                  </Text>
                  {details(row)}
                </Stack>
                {actions ? actions(row) : null}
              </Group>
            </Paper>
          ))}
        </Stack>
      ) : (
        <Table id={id} striped highlightOnHover verticalSpacing={6} className={classes.table}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('org_col_email')}</Table.Th>
              {columns.map((column) => (
                <Table.Th key={column.header}>{column.header}</Table.Th>
              ))}
              {actions ? <Table.Th className={classes.actions}>{t('org_col_actions')}</Table.Th> : null}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {shown.map((row) => (
              <Table.Tr key={rowKey(row)}>
                <Table.Td>
                  <Address value={row.email_address} />
                </Table.Td>
                {columns.map((column) => (
                  <Table.Td key={column.header} className={column.className}>
                    {column.cell(row)}
                  </Table.Td>
                ))}
                {actions ? <Table.Td className={classes.actions}>{actions(row)}</Table.Td> : null}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {toggle ? <ViewAllToggle showAll={showAll} onToggle={onToggleAll} controls={id} /> : null}
    </section>
  );
}

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
  const actions = (member: OrganizationMember) => {
    const own = member.email_address.toLowerCase() === ownEmail.toLowerCase();
    return (
      <Group gap={4} wrap="nowrap">
        <RowAction
          label={t('org_edit_rights_of', { email: member.email_address })}
          tip={t('org_edit_rights')}
          reason={own ? t('org_own_rights_reason') : undefined}
          onClick={() => onEditRights(member)}
        >
          <IconShieldCog size={18} aria-hidden />
        </RowAction>
        <RowAction
          label={t('org_remove_user_of', { email: member.email_address })}
          tip={t('org_remove_user')}
          reason={own ? t('cannot_remove_yourself') : undefined}
          color="red"
          onClick={() => onRemove(member)}
        >
          <IconTrash size={18} aria-hidden />
        </RowAction>
        <RowAction
          label={t('adm_sign_out_of', { email: member.email_address })}
          tip={t('adm_sign_out')}
          reason={own ? t('adm_sign_out_own_reason') : undefined}
          color="red"
          onClick={() => onSignOut(member)}
        >
          <IconLogout size={18} aria-hidden />
        </RowAction>
      </Group>
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
  const actions = (invitation: Invitation) =>
    invitation.invitation_state === 'PENDING' ? (
      <Group gap={4} wrap="nowrap">
        <RowAction
          label={t('org_resend_of', { email: invitation.email_address })}
          tip={t('org_resend_invitation')}
          onClick={() => onResend(invitation)}
        >
          <IconMailForward size={18} aria-hidden />
        </RowAction>
        <RowAction
          label={t('org_revoke_of', { email: invitation.email_address })}
          tip={t('org_revoke_invitation')}
          color="red"
          onClick={() => onRevoke(invitation)}
        >
          <IconX size={18} aria-hidden />
        </RowAction>
      </Group>
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
