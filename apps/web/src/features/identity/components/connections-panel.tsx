import { use } from 'react';
import { Button, Group, Paper, Stack, Text } from '@mantine/core';
import { ResourceList } from '@/components/resource-list';
import { IconKey, IconPencil, IconPlayerPlay, IconPlus, IconPower, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import type { SsoConnection } from '@partner-portal/contracts';
import { useDomains } from '../api/domains';
import { useConnectionPolicy } from '../api/setup-links';
import { setupLinksLocales } from '../lib/locales';
import { notAllowedReason } from './connection-policy-card';
import { ssoRedirectUri, ssoTestUrl, useSsoConnections } from '../api/sso-connections';
import { originOf, sortConnections, verifiedDomains } from '../lib/identity';
import { WebAddress } from '@/components/web-address';
import { CopyField } from '@/components/copy-field';
import { rememberTestedConnection, type PanelProps } from './shared';
import { WholeBadge } from '@/components/whole-badge';
import { Tooltip } from '@/components/tooltip';

/**
 * The sign-in connections that apply to the organization (the operating contract, "Single sign-on
 * per organization"): its own, to add, edit, delete and test; its ancestors' and the server's
 * configured one, read-only, to test. The redirect URI to register at the provider is shown to copy.
 */
export function ConnectionsPanel({ organization, organizationName, open }: PanelProps) {
  const { t } = useTranslation();
  const connections = useSsoConnections(organization.id, true);
  const domains = useDomains(organization.id, true);
  const list = sortConnections(connections.data ?? [], organization.id);
  const usable = verifiedDomains(domains.data ?? []);
  const noDomain = domains.isSuccess && usable.length === 0;
  // not possible here: a higher organization forbids connecting (the connection policy), or no verified domain yet
  use(setupLinksLocales());
  const policy = useConnectionPolicy(organization.id);
  const reason = notAllowedReason(policy.data, t) ?? (noDomain ? t('identity.connection_needs_domain') : null);

  return (
    <Stack gap="sm">
      <Text size="sm">{t('identity.connections_intro')}</Text>
      <CopyField label={t('identity.redirect_uri')} value={ssoRedirectUri(window.location.origin)} testId="redirect-uri" />
      <Group>
        {reason ? (
          // not possible yet: shown disabled with the reason (docs/design.md, "Actions that are not possible")
          <Tooltip label={reason} withinPortal zIndex={1200} multiline maw={320}>
            <Button
              leftSection={<IconPlus size={16} aria-hidden />}
              data-disabled
              aria-disabled
              aria-label={`${t('identity.connection_add')}: ${reason}`}
              onClick={(e) => e.preventDefault()}
            >
              {t('identity.connection_add')}
            </Button>
          </Tooltip>
        ) : (
          <Button
            leftSection={<IconPlus size={16} aria-hidden />}
            onClick={() => open({ type: 'add-connection' })}
            disabled={!domains.isSuccess}
          >
            {t('identity.connection_add')}
          </Button>
        )}
      </Group>
      {reason ? (
        <Text size="sm" c="gray.7">
          {reason}
        </Text>
      ) : null}
      <ResourceList
        query={connections}
        items={list}
        itemKey={(connection) => connection.id}
        item={(connection) => (
          <ConnectionItem
            connection={connection}
            organizationId={organization.id}
            ownerName={organizationName(connection.organization_id)}
            onEdit={() => open({ type: 'edit-connection', connection })}
            onSwitch={(active) => open({ type: 'switch-connection', connection, active })}
            onDelete={() => open({ type: 'delete-connection', connection })}
          />
        )}
        label={t('identity.tab_connections')}
        loading={t('identity.loading')}
        empty={t('identity.connections_none')}
      />
    </Stack>
  );
}

function Detail({ label, children }: { label: string; children: string }) {
  return (
    <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
      <Text span size="sm" c="gray.7">
        {label}:
      </Text>{' '}
      <WebAddress value={children} />
    </Text>
  );
}

function ConnectionItem({
  connection,
  organizationId,
  ownerName,
  onEdit,
  onSwitch,
  onDelete,
}: {
  connection: SsoConnection;
  organizationId: string;
  ownerName: string | null;
  onEdit: () => void;
  onSwitch: (active: boolean) => void;
  onDelete: () => void;
}) {
  const { t } = useTranslation();
  const location = useLocation();
  const origin = originOf(connection, organizationId);
  const name = connection.name;
  const test = () => {
    rememberTestedConnection(connection);
    window.location.assign(ssoTestUrl(connection.id, location.pathname));
  };

  return (
    <Paper
      component="li"
      withBorder
      p="sm"
      radius="md"
      data-testid="sso-connection"
      data-name={name}
      data-origin={origin}
      data-active={connection.active}
    >
      <Stack gap={4} style={{ minWidth: 0 }}>
        <Group gap="xs" wrap="wrap">
          <IconKey size={18} aria-hidden />
          <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
            {name}
          </Text>
          {connection.active ? null : <WholeBadge color="gray">{t('identity.badge_off')}</WholeBadge>}
          {connection.just_in_time ? <WholeBadge color="blue">{t('identity.badge_jit')}</WholeBadge> : null}
        </Group>
        {connection.active ? null : (
          <Text size="xs" c="gray.7">
            {t('identity.off_hint')}
          </Text>
        )}
        {origin === 'configured' ? (
          <Text size="xs" c="gray.7">
            {t('identity.configured')}
          </Text>
        ) : origin === 'inherited' ? (
          <Text size="xs" c="gray.7">
            {ownerName ? t('identity.set_up_by', { name: ownerName }) : t('identity.set_up_by_above')}
          </Text>
        ) : null}
        <Detail label={t('identity.issuer')}>{connection.issuer}</Detail>
        <Detail label={t('identity.client_id')}>{connection.client_id}</Detail>
        {connection.domains.length > 0 ? <Detail label={t('identity.domains')}>{connection.domains.join(', ')}</Detail> : null}
        {connection.has_client_secret === undefined ? null : (
          <Text size="xs" c="gray.7">
            {connection.has_client_secret ? t('identity.client_confidential') : t('identity.client_public')}
          </Text>
        )}
        <Group gap="xs" wrap="wrap" mt={6}>
          <Button
            variant="default"
            size="compact-sm"
            leftSection={<IconPlayerPlay size={14} aria-hidden />}
            aria-label={t('identity.test_label', { name })}
            onClick={test}
          >
            {t('identity.test')}
          </Button>
          {origin === 'own' ? (
            <>
              <Button
                variant={connection.active ? 'default' : 'filled'}
                size="compact-sm"
                leftSection={<IconPower size={14} aria-hidden />}
                aria-label={t(connection.active ? 'identity.switch_off_label' : 'identity.switch_on_label', { name })}
                onClick={() => onSwitch(!connection.active)}
              >
                {t(connection.active ? 'identity.switch_off' : 'identity.switch_on')}
              </Button>
              <Button
                variant="default"
                size="compact-sm"
                leftSection={<IconPencil size={14} aria-hidden />}
                aria-label={t('identity.edit_label', { name })}
                onClick={onEdit}
              >
                {t('identity.edit')}
              </Button>
              <Button
                variant="default"
                size="compact-sm"
                c="red.9"
                leftSection={<IconTrash size={14} aria-hidden />}
                aria-label={t('identity.connection_delete_label', { name })}
                onClick={onDelete}
              >
                {t('identity.delete')}
              </Button>
            </>
          ) : null}
        </Group>
      </Stack>
    </Paper>
  );
}
