import { useId, useState } from 'react';
import { Button, Collapse, Group, Paper, Stack, Text } from '@mantine/core';
import { ResourceList } from '@/components/resource-list';
import { IconChevronDown, IconHistory, IconPencil, IconPlus, IconTrash, IconWebhook } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { Webhook } from '@partner-portal/contracts';
import { WebAddress } from '@/components/web-address';
import { useWebhooks } from '../api/webhooks';
import { isAllEvents } from '../lib/integrations';
import { WholeBadge } from '@/components/whole-badge';
import { Detail } from './detail';
import type { PanelProps } from './shared';
import { WebhookDeliveries } from './webhook-deliveries';

/**
 * The organization's webhooks (the operating contract, "Webhooks"): each one's URL, events and
 * description, to edit or delete, and its latest deliveries, to send again; add one.
 */
export function WebhooksPanel({ organization, open }: PanelProps) {
  const { t } = useTranslation();
  const webhooks = useWebhooks(organization.id);
  const list = webhooks.data ?? [];

  return (
    <Stack gap="sm">
      <Text size="sm">{t('integrations.webhooks_intro')}</Text>
      <Group>
        <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => open({ type: 'create-webhook' })}>
          {t('integrations.webhook_add')}
        </Button>
      </Group>
      <ResourceList
        query={webhooks}
        items={list}
        itemKey={(webhook) => webhook.id}
        item={(webhook) => (
          <WebhookItem
            webhook={webhook}
            organizationId={organization.id}
            onEdit={() => open({ type: 'edit-webhook', webhook })}
            onDelete={() => open({ type: 'delete-webhook', webhook })}
          />
        )}
        label={t('integrations.tab_webhooks')}
        loading={t('integrations.loading')}
        empty={t('integrations.webhooks_none')}
      />
    </Stack>
  );
}

function WebhookItem({
  webhook,
  organizationId,
  onEdit,
  onDelete,
}: {
  webhook: Webhook;
  organizationId: string;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const { t } = useTranslation();
  const [showDeliveries, setShowDeliveries] = useState(false);
  const deliveriesId = useId();
  const url = webhook.url;

  return (
    <Paper component="li" withBorder p="sm" radius="md" data-testid="webhook" data-url={url}>
      <Stack gap={4} style={{ minWidth: 0 }}>
        <Group gap="xs" wrap="nowrap" align="flex-start">
          <IconWebhook size={18} aria-hidden style={{ flex: 'none', marginTop: 3 }} />
          <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
            <WebAddress value={url} />
          </Text>
        </Group>
        {isAllEvents(webhook.events) ? (
          <Group gap="xs">
            <Text size="sm" c="gray.7">
              {t('integrations.events')}:
            </Text>
            <WholeBadge color="blue">{t('integrations.all_events')}</WholeBadge>
          </Group>
        ) : (
          <Detail label={t('integrations.events')} mono>
            {webhook.events.join(', ')}
          </Detail>
        )}
        {webhook.description ? (
          <Text size="sm" style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-line' }}>
            {webhook.description}
          </Text>
        ) : null}
        <Group gap="xs" wrap="wrap" mt={6}>
          <Button
            variant="default"
            size="compact-sm"
            leftSection={<IconHistory size={14} aria-hidden />}
            rightSection={<IconChevronDown size={14} aria-hidden style={{ transform: showDeliveries ? 'rotate(180deg)' : undefined }} />}
            aria-label={t('integrations.deliveries_show_label', { url })}
            aria-expanded={showDeliveries}
            aria-controls={deliveriesId}
            onClick={() => setShowDeliveries(!showDeliveries)}
          >
            {t('integrations.deliveries_show')}
          </Button>
          <Button
            variant="default"
            size="compact-sm"
            leftSection={<IconPencil size={14} aria-hidden />}
            aria-label={t('integrations.webhook_edit_label', { url })}
            onClick={onEdit}
          >
            {t('integrations.edit')}
          </Button>
          <Button
            variant="default"
            size="compact-sm"
            c="red.9"
            leftSection={<IconTrash size={14} aria-hidden />}
            aria-label={t('integrations.webhook_delete_label', { url })}
            onClick={onDelete}
          >
            {t('integrations.delete')}
          </Button>
        </Group>
        <Collapse expanded={showDeliveries} id={deliveriesId}>
          {showDeliveries ? <WebhookDeliveries organizationId={organizationId} webhook={webhook} /> : null}
        </Collapse>
      </Stack>
    </Paper>
  );
}
