import { useEffect } from 'react';
import { Button, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconRefresh, IconSend } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { Webhook, WebhookDelivery } from '@partner-portal/contracts';
import { notifyError, notifySuccess } from '@/components/notify';
import { useFocusBackAfter } from '@/components/return-focus';
import { useFormatDate } from '@/lib/dates';
import { useRetryDelivery, useWebhookDeliveries } from '../api/webhooks';
import { deliveryStatus, deliverySubject, lastAttempt } from '../lib/integrations';
import { WholeBadge } from '@/components/whole-badge';

const STATUS_BADGE = {
  pending: { color: 'yellow', textColor: 'dark.8', label: 'integrations.state_pending' },
  failing: { color: 'orange', textColor: 'dark.9', label: 'integrations.state_failing' },
  succeeded: { color: 'green', textColor: undefined, label: 'integrations.state_succeeded' },
  failed: { color: 'red', textColor: undefined, label: 'integrations.state_failed' },
} as const;

/**
 * A webhook's latest deliveries (the first page, newest first): when, which event and whom or what
 * it is about (the member's or invitee's address, the organization's name), its state (one that
 * failed and will be tried again as failing, with when), attempts and the HTTP status of its last
 * attempt; each one can be sent again, its button named after the event, the subject and the time,
 * and keeping the focus once sent. Refresh asks again.
 */
export function WebhookDeliveries({ organizationId, webhook }: { organizationId: string; webhook: Webhook }) {
  const { t } = useTranslation();
  const deliveries = useWebhookDeliveries(organizationId, webhook.id);
  useEffect(() => {
    if (deliveries.isError) notifyError(deliveries.error);
  }, [deliveries.isError, deliveries.error]);
  const list = deliveries.data?.deliveries ?? [];

  return (
    <Stack gap="xs" mt="sm" data-testid="webhook-deliveries">
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Title order={3} size="h5">
          {t('integrations.deliveries_title')}
        </Title>
        <Button
          variant="subtle"
          size="compact-sm"
          leftSection={<IconRefresh size={14} aria-hidden />}
          aria-label={t('integrations.refresh_label', { url: webhook.url })}
          loading={deliveries.isFetching}
          onClick={() => void deliveries.refetch()}
        >
          {t('integrations.refresh')}
        </Button>
      </Group>
      {deliveries.isPending ? <Loader size="sm" role="status" aria-label={t('integrations.loading')} /> : null}
      {deliveries.data && list.length === 0 ? (
        <Text size="sm" c="gray.7">
          {t('integrations.deliveries_none')}
        </Text>
      ) : null}
      {list.length > 0 ? (
        <Stack component="ul" gap={6} style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label={t('integrations.deliveries_title')}>
          {list.map((delivery) => (
            <DeliveryItem key={delivery.id} delivery={delivery} organizationId={organizationId} webhookId={webhook.id} />
          ))}
        </Stack>
      ) : null}
    </Stack>
  );
}

function DeliveryItem({ delivery, organizationId, webhookId }: { delivery: WebhookDelivery; organizationId: string; webhookId: string }) {
  const { t } = useTranslation();
  const formatDate = useFormatDate();
  const retry = useRetryDelivery(organizationId, webhookId);
  const button = useFocusBackAfter<HTMLButtonElement>(retry.isPending);
  const when = formatDate(delivery.created_at, { time: true });
  const status = deliveryStatus(delivery);
  const badge = STATUS_BADGE[status];
  const subject = deliverySubject(delivery);
  const last = lastAttempt(delivery);
  const answer =
    last.kind === 'status'
      ? t('integrations.http_status', { status: last.status })
      : last.kind === 'no-answer'
        ? [t('integrations.no_answer'), last.error].filter(Boolean).join(': ')
        : t('integrations.not_sent_yet');
  const next = delivery.state === 'pending' && delivery.next_attempt_at ? formatDate(delivery.next_attempt_at, { time: true }) : null;
  const sendAgain = () =>
    retry.mutate(delivery.id, {
      onSuccess: () => notifySuccess(t('integrations.sent_again', { event: delivery.event_type })),
      onError: (error) => notifyError(error),
    });

  return (
    <Paper
      component="li"
      withBorder
      px="sm"
      py={6}
      radius="sm"
      bg={status === 'failing' || status === 'failed' ? 'red.0' : 'gray.0'}
      style={status === 'failing' || status === 'failed' ? { borderColor: 'var(--mantine-color-red-4)' } : undefined}
      data-testid="webhook-delivery"
      data-event={delivery.event_type}
      data-state={delivery.state}
      data-status={status}
    >
      <Group justify="space-between" align="center" gap="xs" wrap="wrap">
        <Stack gap={2} style={{ minWidth: 0, flex: '1 1 14rem' }}>
          <Group gap="xs" wrap="wrap">
            <Text size="sm" ff="monospace" fw={600} style={{ overflowWrap: 'anywhere' }}>
              {delivery.event_type}
            </Text>
            {status === 'failing' ? (
              <Group gap={4} wrap="nowrap" c="red.9" data-testid="delivery-failing">
                <IconAlertTriangle size={14} aria-hidden style={{ flex: 'none' }} />
                <Text size="xs" fw={700} c="red.9">
                  {next ? t('integrations.failing_retry', { date: next }) : t(badge.label)}
                </Text>
              </Group>
            ) : (
              <WholeBadge color={badge.color} textColor={badge.textColor}>
                {t(badge.label)}
              </WholeBadge>
            )}
          </Group>
          {subject ? (
            <Text size="sm" style={{ overflowWrap: 'anywhere' }} data-testid="delivery-subject">
              {subject}
            </Text>
          ) : null}
          <Text size="xs" c="gray.7">
            {when} · {t('integrations.attempts', { count: delivery.attempt_count })} · <span data-testid="delivery-answer">{answer}</span>
            {status === 'pending' && next && delivery.attempt_count > 0 ? ` · ${t('integrations.next_attempt', { date: next })}` : null}
          </Text>
        </Stack>
        <Button
          ref={button}
          variant="default"
          size="compact-sm"
          leftSection={<IconSend size={14} aria-hidden />}
          aria-label={
            subject
              ? t('integrations.send_again_subject_label', { event: delivery.event_type, subject, date: when })
              : t('integrations.send_again_label', { event: delivery.event_type, date: when })
          }
          loading={retry.isPending}
          onClick={sendAgain}
        >
          {t('integrations.send_again')}
        </Button>
      </Group>
    </Paper>
  );
}
