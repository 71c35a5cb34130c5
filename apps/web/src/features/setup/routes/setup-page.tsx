import { use } from 'react';
import { Alert, Divider, Loader, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { errorText } from '@/components/notify';
import { useSetupLink } from '../api/setup';
import { CodeStep } from '../components/code-step';
import { DomainsStep } from '../components/domains-step';
import { Guides } from '../components/guides';
import { ScimStep } from '../components/scim-step';
import { SsoStep } from '../components/sso-step';
import { setupLocales } from '../lib/locales';

/**
 * /setup/:token (the operating contract, "Setup links for a dealer's IT person"): the page a
 * dealer's IT person opens from the e-mailed link, without a portal account. First a one-time code
 * to the link's address; then, for the link's organization, what the link may set up — verified
 * domains, single sign-on, SCIM — with the providers' guides. Nothing else of the portal.
 */
export function SetupPage() {
  use(setupLocales());
  const { t } = useTranslation();
  const { token = '' } = useParams();
  const link = useSetupLink(token);
  // a connection's test sign-in came back (sso_test=ok&sso_test_email=…, or an error key)
  const [params] = useSearchParams();
  const tested = params.get('sso_test');
  const testedEmail = params.get('sso_test_email');

  if (link.isPending) return <Loader role="status" aria-label={t('setup.loading')} />;
  if (link.isError) {
    return (
      <Stack gap="sm">
        <Title order={1} size="h2">
          {t('setup.title')}
        </Title>
        <Alert color="red" icon={<IconAlertCircle aria-hidden />} role="alert">
          {errorText(link.error)}
        </Alert>
        <Text size="sm">{t('setup.unknown_help')}</Text>
      </Stack>
    );
  }
  const info = link.data;
  const capabilities = info.capabilities;
  return (
    <Stack gap="md" data-testid="setup-page">
      <Title order={1} size="h2">
        {t('setup.title_for', { organization: info.organization_name })}
      </Title>
      <Text size="sm" c="gray.7">
        {t('setup.intro', { product: t('product_name') })}
      </Text>
      {!info.signed_in ? (
        <CodeStep token={token} info={info} />
      ) : (
        <>
          {capabilities.includes('domains') ? <DomainsStep organizationId={info.organization_id} /> : null}
          {capabilities.includes('sso') ? (
            <>
              <Divider />
              {tested ? (
                <Alert color={tested === 'ok' ? 'green' : 'red'} role={tested === 'ok' ? 'status' : 'alert'} data-testid="setup-sso-test">
                  {tested === 'ok'
                    ? t('setup.sso_test_ok', { email: testedEmail ?? '' })
                    : t(tested, { defaultValue: t('setup.sso_test_failed'), connection: '' })}
                </Alert>
              ) : null}
              <SsoStep organizationId={info.organization_id} returnPath={`/setup/${token}`} />
            </>
          ) : null}
          {capabilities.includes('scim') ? (
            <>
              <Divider />
              <ScimStep organizationId={info.organization_id} />
            </>
          ) : null}
          <Divider />
          <Guides capabilities={capabilities} />
        </>
      )}
    </Stack>
  );
}
