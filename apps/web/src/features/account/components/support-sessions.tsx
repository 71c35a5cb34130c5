import { Suspense, use } from 'react';
import { Paper, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { OwnSupportSession } from '@partner-portal/contracts';
import { useFormatDate } from '@/lib/dates';
import { AccountSection } from './account-section';
import { ownSupportSessionsQuery } from '../api/support-sessions';
import { accountLocales } from '../lib/locales';

/**
 * The support sessions as the user on the profile page (docs/security.md, "Support sessions"):
 * who supported, when, how long and why. Shown once there is one.
 */
export function SupportSessions() {
  return (
    <Suspense fallback={null}>
      <SupportSessionsPanel />
    </Suspense>
  );
}

/** Whole minutes between two instants, at least 1. */
function minutesBetween(from: string, to: string): number {
  return Math.max(1, Math.round((new Date(to).getTime() - new Date(from).getTime()) / 60_000));
}

function SupportSessionsPanel() {
  use(accountLocales());
  const { t } = useTranslation();
  const formatDate = useFormatDate();
  const sessions = useQuery(ownSupportSessionsQuery);
  const list = sessions.data?.sessions ?? [];
  if (list.length === 0) return null;
  const duration = (s: OwnSupportSession) =>
    !s.started_at
      ? t('supportSessions.not_started')
      : s.ended_at
        ? t('supportSessions.lasted', { count: minutesBetween(s.started_at, s.ended_at) })
        : t('supportSessions.running');
  return (
    <AccountSection id="support-sessions-heading" title={t('supportSessions.title')} intro={t('supportSessions.intro')}>
      <Stack gap="sm" data-testid="support-sessions">
        {list.map((s) => (
          <Paper key={s.id} withBorder p="sm" radius="md">
            <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
              {s.supporter_name} ({s.supporter_email})
            </Text>
            <Text size="sm">
              {formatDate(s.started_at ?? s.created_at, { time: true })} · {duration(s)}
            </Text>
            <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
              {s.reason}
            </Text>
          </Paper>
        ))}
      </Stack>
    </AccountSection>
  );
}
