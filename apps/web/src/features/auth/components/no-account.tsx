import { Anchor, Box, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { TextLink } from '@/components/text-link';
import { paths } from '@/lib/paths';

/**
 * The login page's "No account yet?": accounts come by invitation; the sales contact, and the way
 * to ask the organization's administrators for access (/request-access). After a refused password
 * (`refusedEmail`) the link carries the typed address: the e-mail step cannot tell an unknown
 * address from a known one (by design), the password step is where a visitor learns it.
 */
export function NoAccount({ salesContact, refusedEmail }: { salesContact: string; refusedEmail: string | null }) {
  const { t } = useTranslation();
  return (
    <Box>
      <Text size="sm" fw={600}>
        {t('no_account_title')}
      </Text>
      <Text size="sm" c="dimmed">
        {t('no_account_help')}{' '}
        <Anchor href={`mailto:${salesContact}`} size="sm">
          {salesContact}
        </Anchor>
      </Text>
      <Box mt={4} style={{ overflowWrap: 'anywhere' }}>
        <TextLink to={refusedEmail ? `${paths.requestAccess}?email=${encodeURIComponent(refusedEmail)}` : paths.requestAccess}>
          {refusedEmail ? t('request_access_for', { email: refusedEmail }) : t('request_access_link')}
        </TextLink>
      </Box>
    </Box>
  );
}
