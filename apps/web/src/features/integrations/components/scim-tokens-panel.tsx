import { use } from 'react';
import { Button, Group, Paper, Stack, Text } from '@mantine/core';
import { ResourceList } from '@/components/resource-list';
import { IconAddressBook, IconPlus, IconTrash } from '@tabler/icons-react';
import { Trans, useTranslation } from 'react-i18next';
import type { ScimToken } from '@partner-portal/contracts';
import { useFormatDate } from '@/lib/dates';
import { scimBaseUrl, useScimTokens } from '../api/scim-tokens';
import { useConnectionPolicy } from '@/features/identity/api/setup-links';
import { setupLinksLocales } from '@/features/identity/lib/locales';
import { notAllowedReason } from '@/features/identity/components/connection-policy-card';
import { CopyField } from '@/components/copy-field';
import { Address } from '@/components/address';
import { ScimGuides } from './scim-guides';
import type { PanelProps } from './shared';

/**
 * The organization's SCIM tokens (the operating contract, "SCIM 2.0 provisioning"): the base URL
 * to paste into the directory, and each token's name, maker and use; make one, delete one; below
 * them the setup guides of the directories (scim-guides.tsx).
 */
export function ScimTokensPanel({ organization, open }: PanelProps) {
  const { t } = useTranslation();
  const tokens = useScimTokens(organization.id);
  const list = tokens.data ?? [];
  // a higher organization may forbid connecting directories here (the connection policy)
  use(setupLinksLocales());
  const policy = useConnectionPolicy(organization.id);
  const notAllowed = notAllowedReason(policy.data, t);

  return (
    <Stack gap="sm">
      <Text size="sm">{t('integrations.scim_intro')}</Text>
      <CopyField label={t('integrations.scim_base_url')} value={scimBaseUrl(window.location.origin)} testId="scim-base-url" />
      <Group>
        <Button
          leftSection={<IconPlus size={16} aria-hidden />}
          disabled={notAllowed !== null}
          onClick={() => open({ type: 'create-scim-token' })}
        >
          {t('integrations.token_add')}
        </Button>
      </Group>
      {notAllowed ? (
        <Text size="sm" c="gray.7">
          {notAllowed}
        </Text>
      ) : null}
      <ResourceList
        query={tokens}
        items={list}
        itemKey={(token) => token.id}
        item={(token) => <ScimTokenItem token={token} onDelete={() => open({ type: 'delete-scim-token', token })} />}
        label={t('integrations.tab_scim')}
        loading={t('integrations.loading')}
        empty={t('integrations.tokens_none')}
      />
      <ScimGuides organizationId={organization.id} />
    </Stack>
  );
}

function ScimTokenItem({ token, onDelete }: { token: ScimToken; onDelete: () => void }) {
  const { t } = useTranslation();
  const formatDate = useFormatDate();
  const created = formatDate(token.created_at);
  return (
    <Paper component="li" withBorder p="sm" radius="md" data-testid="scim-token" data-name={token.name}>
      <Group justify="space-between" align="flex-start" gap="xs" wrap="wrap">
        <Stack gap={4} style={{ minWidth: 0, flex: '1 1 16rem' }}>
          <Group gap="xs" wrap="nowrap">
            <IconAddressBook size={18} aria-hidden style={{ flex: 'none' }} />
            <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
              {token.name}
            </Text>
          </Group>
          <Text size="xs" c="gray.7" style={{ overflowWrap: 'anywhere' }}>
            {token.created_by_email ? (
              <Trans
                i18nKey="integrations.created_on_by"
                values={{ date: created }}
                components={{ email: <Address value={token.created_by_email} /> }}
              />
            ) : (
              t('integrations.created_on', { date: created })
            )}{' '}
            ·{' '}
            {token.last_used_at
              ? t('integrations.last_used', { date: formatDate(token.last_used_at, { time: true }) })
              : t('integrations.never_used')}
          </Text>
        </Stack>
        <Button
          variant="default"
          size="compact-sm"
          c="red.9"
          leftSection={<IconTrash size={14} aria-hidden />}
          aria-label={t('integrations.token_delete_label', { name: token.name })}
          onClick={onDelete}
        >
          {t('integrations.delete')}
        </Button>
      </Group>
    </Paper>
  );
}
