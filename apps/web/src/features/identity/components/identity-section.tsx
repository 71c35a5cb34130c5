import { lazy, Suspense, use, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Alert, Badge, Center, Loader, Stack, Tabs, Text, Title, VisuallyHidden } from '@mantine/core';
import { IconAlertCircle, IconCircleCheck, IconKey, IconMailQuestion, IconWorldCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { useAccessRequests } from '../api/access-requests';
import { useModal } from '@/lib/use-modal';
import { readSsoTest, SSO_TEST_PARAMS, type SsoTestOutcome } from '../lib/identity';
import { identityLocales } from '../lib/locales';
import { ConnectionPolicyCard } from './connection-policy-card';
import { DomainsPanel } from './domains-panel';
import { forgetTestedConnection, testedConnectionName, type IdentityModal, type IdentitySectionProps, type PanelProps } from './shared';

// the other tabs load when chosen, the dialogs when the first one opens (then they stay)
const ConnectionsPanel = lazy(() => import('./connections-panel').then((m) => ({ default: m.ConnectionsPanel })));
const AccessRequestsPanel = lazy(() => import('./access-requests-panel').then((m) => ({ default: m.AccessRequestsPanel })));
const IdentityModals = lazy(() => import('./identity-modals').then((m) => ({ default: m.IdentityModals })));

/**
 * "Domains and sign-in" on the manage page (the operating contract, "Verified domains", "Single
 * sign-on per organization", "Access requests"): for organizationManagers the selected
 * organization's domains and sign-in connections, own and inherited; for userManagers the pending
 * access requests of its subtree, with their count on the tab. A userManager who is no
 * organizationManager sees only the requests. The server checks every call the same way.
 */
export function IdentitySection({ organization, user, organizationName, ApproveRequest }: IdentitySectionProps) {
  use(identityLocales());
  const { t } = useTranslation();
  const headingId = useId();
  const location = useLocation();
  const navigate = useNavigate();
  const { modal, open, close, fallback, wanted: modalsWanted } = useModal<IdentityModal>();
  const manager = user.organizationManager;
  const requests = useAccessRequests(organization.id, user.userManager);
  const pending = requests.data?.length ?? 0;

  // a test sign-in came back: its outcome, read once, and the address cleaned
  const [test] = useState<{ outcome: SsoTestOutcome; connection: string } | null>(() => {
    const outcome = readSsoTest(new URLSearchParams(location.search));
    return outcome ? { outcome, connection: testedConnectionName() ?? t('identity.the_connection') } : null;
  });
  const [tab, setTab] = useState<string>(test ? 'connections' : manager ? 'domains' : 'requests');
  const outcomeRef = useRef<HTMLDivElement>(null);
  const testShown = useRef(false);
  useEffect(() => {
    if (!test || testShown.current) return;
    testShown.current = true;
    forgetTestedConnection();
    const params = new URLSearchParams(location.search);
    for (const name of SSO_TEST_PARAMS) params.delete(name);
    const search = params.toString();
    void navigate({ pathname: location.pathname, search: search ? `?${search}` : '' }, { replace: true, state: location.state as unknown });
    outcomeRef.current?.scrollIntoView({ block: 'center' });
    outcomeRef.current?.focus();
  }, [test, location.search, location.pathname, location.state, navigate]);

  if (!manager && !user.userManager) return null;
  const panelProps: PanelProps = { organization, user, organizationName, open };
  const count = (
    <>
      <Badge color="brand" variant="filled" circle={pending < 10} aria-hidden>
        {pending}
      </Badge>
      <VisuallyHidden>{t('identity.requests_pending', { count: pending })}</VisuallyHidden>
    </>
  );

  return (
    <Stack component="section" aria-labelledby={headingId} gap="sm" data-testid="dealer-identity">
      {/* the count beside the title's last line, never on a line of its own */}
      <Title
        order={2}
        size="h3"
        id={headingId}
        ref={fallback}
        tabIndex={-1}
        style={{ display: 'flex', alignItems: 'center', gap: 'var(--mantine-spacing-xs)' }}
      >
        <span style={{ minWidth: 0 }}>{manager ? t('identity.title') : t('identity.title_requests_only')}</span>
        {!manager && pending > 0 ? count : null}
      </Title>
      {manager ? (
        <Text size="sm" c="gray.7">
          {t('identity.intro')}
        </Text>
      ) : null}
      {manager ? <ConnectionPolicyCard organization={organization} user={user} /> : null}
      {test ? (
        <Alert
          ref={outcomeRef}
          tabIndex={-1}
          color={test.outcome.ok ? 'green' : 'red'}
          variant="light"
          icon={test.outcome.ok ? <IconCircleCheck aria-hidden /> : <IconAlertCircle aria-hidden />}
          title={test.outcome.ok ? t('identity.test_ok_title') : t('identity.test_failed_title')}
          role={test.outcome.ok ? 'status' : 'alert'}
          styles={{ title: { color: 'var(--mantine-color-dark-9)' } }}
          data-testid="sso-test-outcome"
        >
          {test.outcome.ok
            ? t('identity.test_ok', { connection: test.connection, email: test.outcome.email })
            : t(test.outcome.key, { connection: test.connection, defaultValue: t('sign_in_error_unknown') })}
        </Alert>
      ) : null}
      {manager ? (
        <Tabs value={tab} onChange={(value) => value && setTab(value)} keepMounted={false}>
          <Tabs.List style={{ flexWrap: 'wrap' }}>
            <Tabs.Tab value="domains" leftSection={<IconWorldCheck size={16} aria-hidden />}>
              {t('identity.tab_domains')}
            </Tabs.Tab>
            <Tabs.Tab value="connections" leftSection={<IconKey size={16} aria-hidden />}>
              {t('identity.tab_connections')}
            </Tabs.Tab>
            {user.userManager ? (
              <Tabs.Tab value="requests" leftSection={<IconMailQuestion size={16} aria-hidden />} rightSection={pending > 0 ? count : null}>
                {t('identity.tab_requests')}
              </Tabs.Tab>
            ) : null}
          </Tabs.List>
          <Tabs.Panel value="domains" pt="md">
            <DomainsPanel {...panelProps} />
          </Tabs.Panel>
          <Tabs.Panel value="connections" pt="md">
            <PanelLoading label={t('identity.loading')}>
              <ConnectionsPanel {...panelProps} />
            </PanelLoading>
          </Tabs.Panel>
          {user.userManager ? (
            <Tabs.Panel value="requests" pt="md">
              <PanelLoading label={t('identity.loading')}>
                <AccessRequestsPanel {...panelProps} requests={requests} />
              </PanelLoading>
            </Tabs.Panel>
          ) : null}
        </Tabs>
      ) : (
        <PanelLoading label={t('identity.loading')}>
          <AccessRequestsPanel {...panelProps} requests={requests} />
        </PanelLoading>
      )}
      {modalsWanted ? (
        <Suspense fallback={null}>
          <IdentityModals modal={modal} organization={organization} user={user} close={close} ApproveRequest={ApproveRequest} />
        </Suspense>
      ) : null}
    </Stack>
  );
}

/** A tab's panel while its code loads. */
function PanelLoading({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Suspense
      fallback={
        <Center py="md">
          <Loader size="sm" role="status" aria-label={label} />
        </Center>
      }
    >
      {children}
    </Suspense>
  );
}
