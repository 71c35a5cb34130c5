import { Group, Text } from '@mantine/core';
import { IconAt } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

const shown = (domains: readonly string[]) => domains.map((d) => `@${d.replace(/^@/, '')}`);

/**
 * The organization's allowed e-mail domains as every administrator sees them in the organization
 * view (docs/product.md, "Validation"): invitations are limited to these; none means any domain.
 */
export function AllowedDomains({ domains }: { domains: readonly string[] }) {
  const { t } = useTranslation();
  return (
    <Group gap={6} wrap="nowrap" align="flex-start" data-testid="allowed-domains">
      <IconAt size={16} aria-hidden style={{ flex: 'none', marginTop: 3 }} />
      <Text size="sm" c="gray.8" style={{ wordBreak: 'break-word' }}>
        {domains.length > 0 ? t('adm_domains_list', { domains: shown(domains).join(', ') }) : t('adm_domains_any')}
      </Text>
    </Group>
  );
}
