import { Anchor, Group, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { configurationQuery } from '@/lib/config';

/** Footer: the privacy statement and the end user licence agreement, each in a new tab. */
export function Footer() {
  const { t } = useTranslation();
  const { data: config } = useQuery(configurationQuery);
  return (
    <Group
      component="footer"
      justify="space-between"
      gap="sm"
      px="md"
      py="sm"
      wrap="wrap"
      style={{ borderTop: '1px solid var(--mantine-color-gray-3)' }}
    >
      <Text size="sm" c="dimmed">
        © {new Date().getFullYear()} {t('product_name')}
      </Text>
      <Group gap="lg" component="nav" aria-label={t('footer_nav_label')}>
        <Anchor href={config?.privacy_statement_url} target="_blank" rel="noopener noreferrer" size="sm">
          {t('privacy_statement')}
        </Anchor>
        <Anchor href={config?.eula_url} target="_blank" rel="noopener noreferrer" size="sm">
          {t('end_user_licence_agreement')}
        </Anchor>
      </Group>
    </Group>
  );
}
