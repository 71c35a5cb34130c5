import { lazy, Suspense, use, useId, useState } from 'react';
import { Center, Loader, Stack, Tabs, Text, Title } from '@mantine/core';
import { IconAddressBook, IconFileText, IconRobot, IconWebhook } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { Organization, UserInfo } from '@partner-portal/contracts';
import { useModal } from '@/lib/use-modal';
import { integrationPanels, type IntegrationPanel } from '../lib/integrations';
import { integrationsLocales } from '../lib/locales';
import { SetupLinksPanel } from '@/features/identity/components/setup-links-panel';
import { ServiceAccountsPanel } from './service-accounts-panel';
import type { IntegrationModal, PanelProps } from './shared';

// the tabs after the first load when chosen (the SCIM tokens' with react-i18next's Trans), the
// dialogs when the first one opens (then they stay)
const ScimTokensPanel = lazy(() => import('./scim-tokens-panel').then((m) => ({ default: m.ScimTokensPanel })));
const IntegrationModals = lazy(() => import('./integration-modals').then((m) => ({ default: m.IntegrationModals })));
const WebhooksPanel = lazy(() => import('./webhooks-panel').then((m) => ({ default: m.WebhooksPanel })));
const AuditStreamsPanel = lazy(() => import('./audit-streams-panel').then((m) => ({ default: m.AuditStreamsPanel })));

const TABS: Record<IntegrationPanel, { label: string; icon: typeof IconRobot }> = {
  'service-accounts': { label: 'integrations.tab_service_accounts', icon: IconRobot },
  scim: { label: 'integrations.tab_scim', icon: IconAddressBook },
  webhooks: { label: 'integrations.tab_webhooks', icon: IconWebhook },
  'audit-streams': { label: 'integrations.tab_audit_streams', icon: IconFileText },
};

/**
 * "Integrations" on the manage page (the operating contract, "Service accounts", "SCIM 2.0
 * provisioning", "Webhooks", "Audit streams"; docs/integrations.md): the selected organization's
 * service accounts for either manager, its directories' SCIM tokens for userManagers, its webhooks
 * and their deliveries and its audit streams for organizationManagers (lib/integrations.ts, integrationPanels: as the server checks
 * each call). Every secret is shown once, in the modal that creates it.
 */
export function IntegrationsSection({ organization, user }: { organization: Organization; user: UserInfo }) {
  use(integrationsLocales());
  const { t } = useTranslation();
  const headingId = useId();
  const { modal, open, close, fallback, wanted: modalsWanted } = useModal<IntegrationModal>();
  const panels = integrationPanels(user);
  const [tab, setTab] = useState<string>(panels[0] ?? 'service-accounts');
  if (panels.length === 0) return null;
  const panelProps: PanelProps = { organization, user, open };

  return (
    <Stack component="section" aria-labelledby={headingId} gap="sm" data-testid="integrations">
      <Title order={2} size="h3" id={headingId} ref={fallback} tabIndex={-1}>
        {t('integrations.title')}
      </Title>
      <Text size="sm" c="gray.7">
        {t('integrations.intro')}
      </Text>
      <Tabs value={tab} onChange={(value) => value && setTab(value)} keepMounted={false}>
        <Tabs.List style={{ flexWrap: 'wrap' }}>
          {panels.map((panel) => {
            const { label, icon: Icon } = TABS[panel];
            return (
              <Tabs.Tab key={panel} value={panel} leftSection={<Icon size={16} aria-hidden />}>
                {t(label)}
              </Tabs.Tab>
            );
          })}
        </Tabs.List>
        {panels.map((panel) => (
          <Tabs.Panel key={panel} value={panel} pt="md">
            <Suspense fallback={<PanelLoader label={t('integrations.loading')} />}>
              {panel === 'service-accounts' ? (
                <ServiceAccountsPanel {...panelProps} />
              ) : panel === 'scim' ? (
                <ScimTokensPanel {...panelProps} />
              ) : panel === 'webhooks' ? (
                <WebhooksPanel {...panelProps} />
              ) : (
                <AuditStreamsPanel {...panelProps} />
              )}
            </Suspense>
          </Tabs.Panel>
        ))}
      </Tabs>
      <SetupLinksPanel organization={organization} user={user} />
      {modalsWanted ? (
        <Suspense fallback={null}>
          <IntegrationModals modal={modal} organization={organization} user={user} close={close} />
        </Suspense>
      ) : null}
    </Stack>
  );
}

function PanelLoader({ label }: { label: string }) {
  return (
    <Center py="md">
      <Loader size="sm" role="status" aria-label={label} />
    </Center>
  );
}
