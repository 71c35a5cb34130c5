import { Accordion, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { SetupCapability } from '@partner-portal/contracts';

const PROVIDERS = ['entra', 'okta', 'google', 'jumpcloud'] as const;

/**
 * Step-by-step guides for Microsoft Entra ID, Okta, Google Workspace and JumpCloud (docs/integrations.md,
 * "Setup links"): which values of this page go where in the provider, for the link's capabilities.
 */
export function Guides({ capabilities }: { capabilities: readonly SetupCapability[] }) {
  const { t } = useTranslation();
  const sso = capabilities.includes('sso');
  const scim = capabilities.includes('scim');
  if (!sso && !scim) return null;
  return (
    <Stack gap="xs" data-testid="setup-guides">
      <Title order={2} size="h4">
        {t('setup.guides_title')}
      </Title>
      <Accordion variant="separated">
        {PROVIDERS.map((provider) => (
          <Accordion.Item key={provider} value={provider}>
            <Accordion.Control>{t(`setup.guide_${provider}`)}</Accordion.Control>
            <Accordion.Panel>
              <Stack gap="xs">
                {sso ? <Text size="sm">{t(`setup.guide_${provider}_sso`)}</Text> : null}
                {scim ? <Text size="sm">{t(`setup.guide_${provider}_scim`)}</Text> : null}
              </Stack>
            </Accordion.Panel>
          </Accordion.Item>
        ))}
      </Accordion>
    </Stack>
  );
}
