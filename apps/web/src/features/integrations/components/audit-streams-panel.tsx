import { Button, Group, Paper, Stack, Text } from '@mantine/core';
import { ResourceList } from '@/components/resource-list';
import { IconAlertTriangle, IconFileText, IconHistory, IconPlayerPause, IconPlayerPlay, IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { AuditStream } from '@partner-portal/contracts';
import { notifyError, notifySuccess } from '@/components/notify';
import { WebAddress } from '@/components/web-address';
import { useFormatDate } from '@/lib/dates';
import { useAuditStreams, useUpdateAuditStream } from '../api/audit-streams';
import { WholeBadge } from '@/components/whole-badge';
import { Detail } from './detail';
import type { PanelProps } from './shared';

/** How each kind of stream is named. */
export const STREAM_KIND_LABELS: Record<AuditStream['kind'], string> = {
  https: 'integrations.audit_stream_kind_https',
  splunk_hec: 'integrations.audit_stream_kind_splunk_hec',
  datadog: 'integrations.audit_stream_kind_datadog',
};

// the colours of the webhook deliveries' states (webhook-deliveries.tsx), whose contrast axe checks
const STATE_BADGES: Record<AuditStream['state'], { label: string; color: string; textColor?: string }> = {
  active: { label: 'integrations.audit_stream_state_active', color: 'green' },
  paused: { label: 'integrations.audit_stream_state_paused', color: 'yellow', textColor: 'dark.8' },
  failing: { label: 'integrations.audit_stream_state_failing', color: 'red' },
};

/**
 * The organization's audit streams (the operating contract, "Audit streams"): each one's kind,
 * URL, state (active, paused, or failing with its last error) and the time of the last entry it
 * delivered; pause or resume it, send again from a time, delete it; add one.
 */
export function AuditStreamsPanel({ organization, open }: PanelProps) {
  const { t } = useTranslation();
  const streams = useAuditStreams(organization.id);
  const list = streams.data ?? [];

  return (
    <Stack gap="sm">
      <Text size="sm">{t('integrations.audit_streams_intro')}</Text>
      <Group>
        <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => open({ type: 'create-audit-stream' })}>
          {t('integrations.audit_stream_add')}
        </Button>
      </Group>
      <ResourceList
        query={streams}
        items={list}
        itemKey={(stream) => stream.id}
        item={(stream) => (
          <AuditStreamItem
            stream={stream}
            organizationId={organization.id}
            onReplay={() => open({ type: 'replay-audit-stream', stream })}
            onDelete={() => open({ type: 'delete-audit-stream', stream })}
          />
        )}
        label={t('integrations.tab_audit_streams')}
        loading={t('integrations.loading')}
        empty={t('integrations.audit_streams_none')}
      />
    </Stack>
  );
}

function AuditStreamItem({
  stream,
  organizationId,
  onReplay,
  onDelete,
}: {
  stream: AuditStream;
  organizationId: string;
  onReplay: () => void;
  onDelete: () => void;
}) {
  const { t } = useTranslation();
  const formatDate = useFormatDate();
  const update = useUpdateAuditStream(organizationId);
  const { url } = stream;
  const badge = STATE_BADGES[stream.state];
  const paused = stream.state === 'paused';
  const togglePause = () =>
    update.mutate(
      { id: stream.id, paused: !paused },
      {
        onSuccess: () => notifySuccess(t(paused ? 'integrations.audit_stream_resumed' : 'integrations.audit_stream_paused', { url })),
        onError: (error) => notifyError(error),
      },
    );

  return (
    <Paper
      component="li"
      withBorder
      p="sm"
      radius="md"
      data-testid="audit-stream"
      data-url={url}
      data-state={stream.state}
      style={stream.state === 'failing' ? { borderColor: 'var(--mantine-color-red-4)' } : undefined}
    >
      <Stack gap={4} style={{ minWidth: 0 }}>
        <Group gap="xs" wrap="nowrap" align="flex-start">
          <IconFileText size={18} aria-hidden style={{ flex: 'none', marginTop: 3 }} />
          <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
            <WebAddress value={url} />
          </Text>
        </Group>
        <Group gap="xs" wrap="wrap">
          <WholeBadge color="blue">{t(STREAM_KIND_LABELS[stream.kind])}</WholeBadge>
          <WholeBadge color={badge.color} textColor={badge.textColor}>
            {t(badge.label)}
          </WholeBadge>
        </Group>
        {stream.state === 'failing' && stream.last_error ? (
          <Group gap={4} wrap="nowrap" c="red.9" data-testid="audit-stream-error" align="flex-start">
            <IconAlertTriangle size={14} aria-hidden style={{ flex: 'none', marginTop: 3 }} />
            <Text size="sm" c="red.9" style={{ overflowWrap: 'anywhere' }}>
              {t('integrations.audit_stream_last_error', { error: stream.last_error })}
            </Text>
          </Group>
        ) : null}
        <Detail label={t('integrations.audit_stream_last_delivered')}>
          {stream.last_delivered_at ? formatDate(stream.last_delivered_at, { time: true }) : t('integrations.audit_stream_never')}
        </Detail>
        {stream.description ? (
          <Text size="sm" style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-line' }}>
            {stream.description}
          </Text>
        ) : null}
        <Group gap="xs" wrap="wrap" mt={6}>
          <Button
            variant="default"
            size="compact-sm"
            leftSection={paused ? <IconPlayerPlay size={14} aria-hidden /> : <IconPlayerPause size={14} aria-hidden />}
            aria-label={t(paused ? 'integrations.audit_stream_resume_label' : 'integrations.audit_stream_pause_label', { url })}
            loading={update.isPending}
            onClick={togglePause}
          >
            {t(paused ? 'integrations.audit_stream_resume' : 'integrations.audit_stream_pause')}
          </Button>
          <Button
            variant="default"
            size="compact-sm"
            leftSection={<IconHistory size={14} aria-hidden />}
            aria-label={t('integrations.audit_stream_replay_label', { url })}
            onClick={onReplay}
          >
            {t('integrations.audit_stream_replay')}
          </Button>
          <Button
            variant="default"
            size="compact-sm"
            c="red.9"
            leftSection={<IconTrash size={14} aria-hidden />}
            aria-label={t('integrations.audit_stream_delete_label', { url })}
            onClick={onDelete}
          >
            {t('integrations.delete')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
