import { Fragment, type ReactNode } from 'react';
import { ActionIcon, Badge, Button, Group, Paper, Stack, Table, Text, Title, Tooltip } from '@mantine/core';
import { useElementSize, useMediaQuery } from '@mantine/hooks';
import { IconMailForward, IconShieldCog, IconTrash, IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { TABLE_ROWS_DEFAULT, type Invitation, type OrganizationMember } from '@partner-portal/contracts';
import { formatInvitationDate } from '../lib/format';
import classes from './people-tables.module.css';

interface TableProps<T> {
  rows: T[];
  searching: boolean;
  showAll: boolean;
  onToggleAll: () => void;
  canManage: boolean;
}

/** Below this width the tables become one card per row (docs/design.md, tables on phones). */
export const CARDS_QUERY = '(max-width: 40em)';
/** The narrowest sections that still show their columns without sideways scrolling in every language. */
const USERS_TABLE_MIN_WIDTH = 560;
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

export function UsersTable({
  rows,
  searching,
  showAll,
  onToggleAll,
  canManage,
  ownEmail,
  onEditRights,
  onRemove,
}: TableProps<OrganizationMember> & {
  /** the signed-in user's address: their own row offers no rights editing and no removal */
  ownEmail: string;
  onEditRights: (m: OrganizationMember) => void;
  onRemove: (m: OrganizationMember) => void;
}) {
  const { t } = useTranslation();
  const { ref, cards } = useCards(USERS_TABLE_MIN_WIDTH);
  const { shown, toggle } = limit(rows, searching, showAll);
  const name = (member: OrganizationMember) => [member.first_name, member.last_name].filter(Boolean).join(' ');
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
      </Group>
    );
  };
  return (
    <section aria-labelledby="org-users-heading" ref={ref}>
      <CountedHeading id="org-users-heading" title={t('org_users')} count={t('org_user_count', { count: rows.length })} />
      {rows.length === 0 ? (
        <Text c="gray.7" size="sm" py="sm">
          {searching ? t('org_no_match_users') : t('org_no_users')}
        </Text>
      ) : cards ? (
        <Stack component="ul" id="org-users-table" gap="xs" className={classes.cards}>
          {shown.map((member) => (
            <Paper component="li" key={member.id} withBorder p="sm" className={classes.card}>
              <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
                <Stack gap={2} miw={0}>
                  <Text fw={600} size="sm">
                    <Address value={member.email_address} />
                  </Text>
                  {name(member) ? <Text size="sm">{name(member)}</Text> : null}
                  {searching && member.organization_name ? (
                    <Text size="sm" c="gray.7">
                      {member.organization_name}
                    </Text>
                  ) : null}
                </Stack>
                {canManage ? actions(member) : null}
              </Group>
            </Paper>
          ))}
        </Stack>
      ) : (
        <Table id="org-users-table" striped highlightOnHover verticalSpacing={6} className={classes.table}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('org_col_email')}</Table.Th>
              <Table.Th>{t('org_col_name')}</Table.Th>
              {searching ? <Table.Th>{t('org_col_organization')}</Table.Th> : null}
              {canManage ? <Table.Th className={classes.actions}>{t('org_col_actions')}</Table.Th> : null}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {shown.map((member) => (
              <Table.Tr key={member.id}>
                <Table.Td>
                  <Address value={member.email_address} />
                </Table.Td>
                <Table.Td>{name(member)}</Table.Td>
                {searching ? <Table.Td>{member.organization_name}</Table.Td> : null}
                {canManage ? <Table.Td className={classes.actions}>{actions(member)}</Table.Td> : null}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {toggle ? <ViewAllToggle showAll={showAll} onToggle={onToggleAll} controls="org-users-table" /> : null}
    </section>
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
  const { ref, cards } = useCards(INVITATIONS_TABLE_MIN_WIDTH);
  const { shown, toggle } = limit(rows, searching, showAll);
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
    <section aria-labelledby="org-invitations-heading" ref={ref}>
      <CountedHeading id="org-invitations-heading" title={t('org_invitations')} count={t('org_invitation_count', { count: rows.length })} />
      {rows.length === 0 ? (
        <Text c="gray.7" size="sm" py="sm">
          {searching ? t('org_no_match_invitations') : t('org_no_invitations')}
        </Text>
      ) : cards ? (
        <Stack component="ul" id="org-invitations-table" gap="xs" className={classes.cards}>
          {shown.map((invitation) => (
            <Paper component="li" key={invitation.invitation_id} withBorder p="sm" className={classes.card}>
              <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
                <Stack gap={4} miw={0}>
                  <Text fw={600} size="sm">
                    <Address value={invitation.email_address} />
                  </Text>
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
                </Stack>
                {canManage ? actions(invitation) : null}
              </Group>
            </Paper>
          ))}
        </Stack>
      ) : (
        <Table id="org-invitations-table" striped highlightOnHover verticalSpacing={6} className={classes.table}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('org_col_email')}</Table.Th>
              <Table.Th>{t('org_col_state')}</Table.Th>
              <Table.Th>{t('org_col_created')}</Table.Th>
              <Table.Th>{t('org_col_last_sent')}</Table.Th>
              <Table.Th>{t('org_col_expires')}</Table.Th>
              {searching ? <Table.Th>{t('org_col_organization')}</Table.Th> : null}
              {canManage ? <Table.Th className={classes.actions}>{t('org_col_actions')}</Table.Th> : null}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {shown.map((invitation) => (
              <Table.Tr key={invitation.invitation_id}>
                <Table.Td>
                  <Address value={invitation.email_address} />
                </Table.Td>
                <Table.Td>
                  <StateBadge invitation={invitation} />
                </Table.Td>
                <Table.Td className={classes.date}>{formatInvitationDate(invitation.created_at)}</Table.Td>
                <Table.Td className={classes.date}>{formatInvitationDate(invitation.last_sent_at)}</Table.Td>
                <Table.Td className={classes.date}>{formatInvitationDate(invitation.expires_at)}</Table.Td>
                {searching ? <Table.Td>{invitation.organization_name}</Table.Td> : null}
                {canManage ? <Table.Td className={classes.actions}>{actions(invitation)}</Table.Td> : null}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {toggle ? <ViewAllToggle showAll={showAll} onToggle={onToggleAll} controls="org-invitations-table" /> : null}
    </section>
  );
}
