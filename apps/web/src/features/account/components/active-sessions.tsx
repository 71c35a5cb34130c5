import { Suspense, use } from 'react';
import { Alert, Badge, Button, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import { IconDeviceDesktop } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { AccountSession } from '@partner-portal/contracts';
import { errorText, notifyError, notifySuccess } from '@/components/notify';
import { useFormatDate } from '@/lib/dates';
import { AccountSection } from './account-section';
import { endOtherSessions, endSession, sessionsQuery } from '../api/sessions';
import { accountLocales } from '../lib/locales';

/**
 * The user's active sessions on the profile page: browser, address, when it started and was last
 * active, which one is this browser; end one other session, or all the others.
 */
export function ActiveSessions() {
  return (
    <Suspense fallback={null}>
      <SessionsPanel />
    </Suspense>
  );
}

function SessionsPanel() {
  use(accountLocales());
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const sessions = useQuery(sessionsQuery);
  const refresh = () => queryClient.invalidateQueries({ queryKey: sessionsQuery.queryKey });
  const endOne = useMutation({
    mutationFn: (id: string) => endSession(id),
    onSuccess: async () => {
      notifySuccess(t('sessions_ended'));
      await refresh();
    },
    onError: (err) => notifyError(err),
  });
  const endOthers = useMutation({
    mutationFn: endOtherSessions,
    onSuccess: async (result) => {
      notifySuccess(t('sessions_others_ended', { count: result.ended }));
      await refresh();
    },
    onError: (err) => notifyError(err),
  });

  const list = sessions.data?.sessions ?? [];
  const others = list.filter((s) => !s.current);

  return (
    <AccountSection id="active-sessions-title" title={t('sessions_title')} intro={t('sessions_intro')}>
      {sessions.isPending && <Loader size="sm" role="status" aria-label={t('sessions_title')} />}
      {sessions.isError && (
        <Alert color="red" variant="light" role="alert" title={t('sessions_load_failed')}>
          {errorText(sessions.error)}
        </Alert>
      )}
      {list.length > 0 && (
        <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {[...list.filter((s) => s.current), ...others].map((session) => (
            <SessionItem
              key={session.id}
              session={session}
              ending={endOne.isPending && endOne.variables === session.id}
              onEnd={() => endOne.mutate(session.id)}
            />
          ))}
        </Stack>
      )}
      {sessions.isSuccess && others.length === 0 && (
        <Text size="sm" role="status">
          {t('sessions_none_elsewhere')}
        </Text>
      )}
      {others.length > 0 && (
        <Group justify="flex-end">
          <Button variant="light" color="red" loading={endOthers.isPending} onClick={() => endOthers.mutate()}>
            {t('sessions_end_others')}
          </Button>
        </Group>
      )}
    </AccountSection>
  );
}

function SessionItem({ session, ending, onEnd }: { session: AccountSession; ending: boolean; onEnd: () => void }) {
  const { t } = useTranslation();
  const formatDate = useFormatDate();
  const browser = session.browser ?? t('sessions_unknown_browser');
  const lastSeen = formatDate(session.last_seen_at, { time: true });
  return (
    <Paper component="li" withBorder radius="md" p="sm">
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
        <Group align="flex-start" gap="sm" wrap="nowrap" style={{ minWidth: 0, flex: '1 1 16rem' }}>
          <IconDeviceDesktop aria-hidden size={22} style={{ flexShrink: 0, marginTop: 2 }} />
          <Stack gap={2} style={{ minWidth: 0 }}>
            <Group gap="xs" wrap="wrap">
              <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                {browser}
              </Text>
              {session.current && (
                <Badge color="teal.9" variant="filled">
                  {t('sessions_current')}
                </Badge>
              )}
            </Group>
            {session.ip_address && (
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                {t('sessions_address', { address: session.ip_address })}
              </Text>
            )}
            <Text size="sm">{t('sessions_started', { date: formatDate(session.created_at, { time: true }) })}</Text>
            <Text size="sm">{t('sessions_last_seen', { date: lastSeen })}</Text>
          </Stack>
        </Group>
        {!session.current && (
          <Button
            variant="default"
            size="xs"
            loading={ending}
            onClick={onEnd}
            aria-label={`${t('sessions_end')}: ${browser}, ${t('sessions_last_seen', { date: lastSeen })}`}
          >
            {t('sessions_end')}
          </Button>
        )}
      </Group>
    </Paper>
  );
}
