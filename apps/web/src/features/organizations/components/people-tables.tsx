import { ActionIcon, Badge, Button, Group, Table, Text, Title, Tooltip } from '@mantine/core';
import { IconMailForward, IconShieldCog, IconTrash, IconX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { TABLE_ROWS_DEFAULT, type Invitation, type OrganizationMember } from '@partner-portal/contracts';
import { formatInvitationDate } from '../lib/format';

interface TableProps<T> {
  rows: T[];
  searching: boolean;
  showAll: boolean;
  onToggleAll: () => void;
  canManage: boolean;
}

/** 4 rows unless 'view all'; the toggle only above 4 rows and without a search (spec §2, §9). */
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

export function UsersTable({
  rows,
  searching,
  showAll,
  onToggleAll,
  canManage,
  onEditRights,
  onRemove,
}: TableProps<OrganizationMember> & { onEditRights: (m: OrganizationMember) => void; onRemove: (m: OrganizationMember) => void }) {
  const { t } = useTranslation();
  const { shown, toggle } = limit(rows, searching, showAll);
  return (
    <section aria-labelledby="org-users-heading">
      <Group justify="space-between" align="baseline">
        <Title order={3} id="org-users-heading" size="h4">
          {t('org_users')}{' '}
          <Text span c="gray.7" size="sm">
            ({rows.length})
          </Text>
        </Title>
      </Group>
      {rows.length === 0 ? (
        <Text c="gray.7" size="sm" py="sm">
          {searching ? t('org_no_match_users') : t('org_no_users')}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={520}>
          <Table id="org-users-table" striped highlightOnHover verticalSpacing={6}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('org_col_email')}</Table.Th>
                <Table.Th>{t('org_col_name')}</Table.Th>
                {searching ? <Table.Th>{t('org_col_organization')}</Table.Th> : null}
                {canManage ? <Table.Th style={{ width: 96 }}>{t('org_col_actions')}</Table.Th> : null}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {shown.map((member) => (
                <Table.Tr key={member.id}>
                  <Table.Td style={{ wordBreak: 'break-all' }}>{member.email_address}</Table.Td>
                  <Table.Td>{[member.first_name, member.last_name].filter(Boolean).join(' ')}</Table.Td>
                  {searching ? <Table.Td>{member.organization_name}</Table.Td> : null}
                  {canManage ? (
                    <Table.Td>
                      <Group gap={4} wrap="nowrap">
                        <Tooltip label={t('org_edit_rights')} zIndex={1200}>
                          <ActionIcon
                            variant="subtle"
                            aria-label={t('org_edit_rights_of', { email: member.email_address })}
                            onClick={() => onEditRights(member)}
                          >
                            <IconShieldCog size={18} aria-hidden />
                          </ActionIcon>
                        </Tooltip>
                        <Tooltip label={t('org_remove_user')} zIndex={1200}>
                          <ActionIcon
                            variant="subtle"
                            color="red"
                            aria-label={t('org_remove_user_of', { email: member.email_address })}
                            onClick={() => onRemove(member)}
                          >
                            <IconTrash size={18} aria-hidden />
                          </ActionIcon>
                        </Tooltip>
                      </Group>
                    </Table.Td>
                  ) : null}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {toggle ? <ViewAllToggle showAll={showAll} onToggle={onToggleAll} controls="org-users-table" /> : null}
    </section>
  );
}

const STATE_COLOR: Record<string, string> = { PENDING: 'blue', ACCEPTED: 'green', REVOKED: 'gray', EXPIRED: 'orange', REJECTED: 'red' };

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
  const { shown, toggle } = limit(rows, searching, showAll);
  return (
    <section aria-labelledby="org-invitations-heading">
      <Title order={3} id="org-invitations-heading" size="h4">
        {t('org_invitations')}{' '}
        <Text span c="gray.7" size="sm">
          ({rows.length})
        </Text>
      </Title>
      {rows.length === 0 ? (
        <Text c="gray.7" size="sm" py="sm">
          {searching ? t('org_no_match_invitations') : t('org_no_invitations')}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={620}>
          <Table id="org-invitations-table" striped highlightOnHover verticalSpacing={6}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('org_col_email')}</Table.Th>
                <Table.Th>{t('org_col_state')}</Table.Th>
                <Table.Th>{t('org_col_created')}</Table.Th>
                <Table.Th>{t('org_col_last_sent')}</Table.Th>
                {searching ? <Table.Th>{t('org_col_organization')}</Table.Th> : null}
                {canManage ? <Table.Th style={{ width: 96 }}>{t('org_col_actions')}</Table.Th> : null}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {shown.map((invitation) => {
                const pending = invitation.invitation_state === 'PENDING';
                return (
                  <Table.Tr key={invitation.invitation_id}>
                    <Table.Td style={{ wordBreak: 'break-all' }}>{invitation.email_address}</Table.Td>
                    <Table.Td>
                      <Badge variant="light" color={STATE_COLOR[invitation.invitation_state] ?? 'gray'} autoContrast>
                        {t(`invitation_status_${invitation.invitation_state.toLowerCase()}`)}
                      </Badge>
                    </Table.Td>
                    <Table.Td>{formatInvitationDate(invitation.created_at)}</Table.Td>
                    <Table.Td>{formatInvitationDate(invitation.last_sent_at)}</Table.Td>
                    {searching ? <Table.Td>{invitation.organization_name}</Table.Td> : null}
                    {canManage ? (
                      <Table.Td>
                        {pending ? (
                          <Group gap={4} wrap="nowrap">
                            <Tooltip label={t('org_resend_invitation')} zIndex={1200}>
                              <ActionIcon
                                variant="subtle"
                                aria-label={t('org_resend_of', { email: invitation.email_address })}
                                onClick={() => onResend(invitation)}
                              >
                                <IconMailForward size={18} aria-hidden />
                              </ActionIcon>
                            </Tooltip>
                            <Tooltip label={t('org_revoke_invitation')} zIndex={1200}>
                              <ActionIcon
                                variant="subtle"
                                color="red"
                                aria-label={t('org_revoke_of', { email: invitation.email_address })}
                                onClick={() => onRevoke(invitation)}
                              >
                                <IconX size={18} aria-hidden />
                              </ActionIcon>
                            </Tooltip>
                          </Group>
                        ) : null}
                      </Table.Td>
                    ) : null}
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {toggle ? <ViewAllToggle showAll={showAll} onToggle={onToggleAll} controls="org-invitations-table" /> : null}
    </section>
  );
}
