import { Button, Group, Paper, Stack, Text } from '@mantine/core';
import { ResourceList } from '@/components/resource-list';
import { IconPlus, IconRobot, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { SERVICE_ACCOUNT_SCOPE, type ServiceAccount } from '@partner-portal/contracts';
import { useFormatDate } from '@/lib/dates';
import { tokenEndpoint, useServiceAccounts } from '../api/service-accounts';
import { CopyField } from '@/components/copy-field';
import { WholeBadge } from '@/components/whole-badge';
import { Detail } from './detail';
import type { PanelProps } from './shared';

/**
 * The organization's service accounts (the operating contract, "Service accounts"): name, client
 * id, rights, when made and last used; create one, delete one. The token endpoint and the scope an
 * application asks for are shown to copy.
 */
export function ServiceAccountsPanel({ organization, open }: PanelProps) {
  const { t } = useTranslation();
  const accounts = useServiceAccounts(organization.id);
  const list = accounts.data ?? [];

  return (
    <Stack gap="sm">
      <Text size="sm">{t('integrations.accounts_intro')}</Text>
      <CopyField label={t('integrations.token_endpoint')} value={tokenEndpoint(window.location.origin)} testId="token-endpoint" />
      <CopyField label={t('integrations.scope')} value={SERVICE_ACCOUNT_SCOPE} testId="scope" />
      <Group>
        <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => open({ type: 'create-service-account' })}>
          {t('integrations.account_add')}
        </Button>
      </Group>
      <ResourceList
        query={accounts}
        items={list}
        itemKey={(account) => account.id}
        item={(account) => <ServiceAccountItem account={account} onDelete={() => open({ type: 'delete-service-account', account })} />}
        label={t('integrations.tab_service_accounts')}
        loading={t('integrations.loading')}
        empty={t('integrations.accounts_none')}
      />
    </Stack>
  );
}

function ServiceAccountItem({ account, onDelete }: { account: ServiceAccount; onDelete: () => void }) {
  const { t } = useTranslation();
  const formatDate = useFormatDate();
  return (
    <Paper component="li" withBorder p="sm" radius="md" data-testid="service-account" data-name={account.name}>
      <Group justify="space-between" align="flex-start" gap="xs" wrap="wrap">
        <Stack gap={4} style={{ minWidth: 0, flex: '1 1 16rem' }}>
          <Group gap="xs" wrap="wrap">
            <IconRobot size={18} aria-hidden />
            <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
              {account.name}
            </Text>
            {account.user_manager ? <WholeBadge color="blue">{t('integrations.right_user_manager')}</WholeBadge> : null}
            {account.organization_manager ? <WholeBadge color="blue">{t('integrations.right_organization_manager')}</WholeBadge> : null}
            {!account.user_manager && !account.organization_manager ? (
              <WholeBadge color="gray" textColor="dark.8">
                {t('integrations.no_rights')}
              </WholeBadge>
            ) : null}
          </Group>
          <Detail label={t('integrations.client_id')} mono>
            {account.client_id}
          </Detail>
          <Text size="xs" c="gray.7">
            {t('integrations.created_on', { date: formatDate(account.created_at) })} ·{' '}
            {account.last_used_at
              ? t('integrations.last_used', { date: formatDate(account.last_used_at, { time: true }) })
              : t('integrations.never_used')}
          </Text>
        </Stack>
        <Button
          variant="default"
          size="compact-sm"
          c="red.9"
          leftSection={<IconTrash size={14} aria-hidden />}
          aria-label={t('integrations.account_delete_label', { name: account.name })}
          onClick={onDelete}
        >
          {t('integrations.delete')}
        </Button>
      </Group>
    </Paper>
  );
}
