import { useState } from 'react';
import { Alert, Button, Group, List, Loader, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { displayName, type SsoConnection, type UserInfo } from '@partner-portal/contracts';
import { errorLines } from '@/components/notify';
import { useDeleteSsoConnection, useSsoConnectionMembers, useUpdateSsoConnection } from '../api/sso-connections';
import { withRightsInWords } from '@/lib/rights-in-words';
import { ModalFrame, ProblemSummary } from '@/components/modal-frame';

/** What the modal does to the connection: switch it on, switch it off, or delete it. */
export type ConnectionSwitch = 'on' | 'off' | 'delete';

/**
 * Before a connection starts or stops deciding how people sign in (the operating contract, "Single
 * sign-on per organization": the web app shows who will sign in through a connection before it is
 * switched on): who it serves, by name, the signed-in manager marked, and what changes for them.
 * The server refuses the change when one of them holds rights the manager lacks; the refusal names
 * them in words.
 */
export function ConnectionSwitchModal({
  organizationId,
  connection,
  change,
  user,
  onClose,
  onDone,
}: {
  organizationId: string;
  connection: SsoConnection;
  change: ConnectionSwitch;
  user: UserInfo;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const members = useSsoConnectionMembers(organizationId, connection.id);
  const update = useUpdateSsoConnection(organizationId);
  const remove = useDeleteSsoConnection(organizationId);
  const [busy, setBusy] = useState(false);
  const [problems, setProblems] = useState<string[] | null>(null);
  const name = connection.name;
  const total = members.data?.total ?? 0;
  const self = user.email.toLowerCase();

  const confirm = async () => {
    setBusy(true);
    setProblems(null);
    try {
      if (change === 'delete') await remove.mutateAsync(connection.id);
      else await update.mutateAsync({ id: connection.id, active: change === 'on' });
      onDone();
    } catch (error) {
      setProblems(errorLines(withRightsInWords(error, t)));
      setBusy(false);
    }
  };

  const title = {
    on: t('identity.switch_on_title', { name }),
    off: t('identity.switch_off_title', { name }),
    delete: t('identity.connection_delete_title'),
  }[change];
  const effect = {
    on: t('identity.switch_on_effect', { name, count: total }),
    off: t('identity.switch_off_effect', { name, count: total }),
    delete: t('identity.delete_effect', { name, count: total }),
  }[change];
  const includesSelf = members.data?.members.some((m) => m.email.toLowerCase() === self) ?? false;
  // an inactive connection serves nobody today: deleting it changes nothing for anyone
  const affectsNobody = change === 'delete' && !connection.active;

  return (
    <ModalFrame title={title} onClose={onClose} size="lg">
      <Stack>
        {change === 'on' ? <Text size="sm">{t('identity.switch_on_test_first')}</Text> : null}
        {members.isPending ? <Loader size="sm" role="status" aria-label={t('identity.loading')} /> : null}
        {members.isError ? <ProblemSummary lines={errorLines(members.error)} /> : null}
        {members.data && !affectsNobody ? (
          <>
            <Alert color={change === 'on' ? 'yellow' : 'blue'} icon={<IconAlertTriangle aria-hidden />} role="status">
              {effect}
              {includesSelf && change === 'on' ? ` ${t('identity.switch_on_includes_you')}` : null}
            </Alert>
            {total > 0 ? (
              <List size="sm" spacing={2} aria-label={t('identity.members_served', { count: total })} data-testid="connection-members">
                {members.data.members.map((m) => (
                  <List.Item key={m.user_id}>
                    <Text span size="sm" fw={m.email.toLowerCase() === self ? 700 : undefined} style={{ overflowWrap: 'anywhere' }}>
                      {displayName(m.first_name, m.last_name, m.email)}
                      {m.email.toLowerCase() === self ? ` (${t('identity.you')})` : ''}
                    </Text>{' '}
                    <Text span size="sm" c="gray.7" style={{ overflowWrap: 'anywhere' }}>
                      {m.email} · {m.organization_name}
                    </Text>
                  </List.Item>
                ))}
                {total > members.data.members.length ? (
                  <List.Item>
                    <Text span size="sm" c="gray.7">
                      {t('identity.members_more', { count: total - members.data.members.length })}
                    </Text>
                  </List.Item>
                ) : null}
              </List>
            ) : null}
          </>
        ) : null}
        {affectsNobody ? <Text size="sm">{t('identity.delete_inactive', { name })}</Text> : null}
        <ProblemSummary lines={problems} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} data-autofocus>
            {t('org_cancel')}
          </Button>
          <Button color={change === 'on' ? undefined : 'red'} onClick={() => void confirm()} loading={busy} disabled={members.isPending}>
            {{ on: t('identity.switch_on'), off: t('identity.switch_off'), delete: t('identity.delete') }[change]}
          </Button>
        </Group>
      </Stack>
    </ModalFrame>
  );
}
