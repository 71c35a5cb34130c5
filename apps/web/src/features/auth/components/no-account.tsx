import { useTranslation } from 'react-i18next';
import { anchorProps, rem, Text } from '@/components/plain';
import { TextLink } from '@/components/text-link';
import { paths } from '@/lib/paths';

/**
 * The login page's "No account yet?": accounts come by invitation; the sales contact, and the way
 * to ask the organization's administrators for access (/request-access). After a refused password
 * (`refusedEmail`) the link carries the typed address: the e-mail step cannot tell an unknown
 * address from a known one (by design), the password step is where a visitor learns it.
 * Mantine's `Text` and `Anchor` as plain elements (components/plain.tsx): it is on the login route.
 */
export function NoAccount({ salesContact, refusedEmail }: { salesContact: string; refusedEmail: string | null }) {
  const { t } = useTranslation();
  return (
    <div>
      <Text size="sm" style={{ fontWeight: 600 }}>
        {t('no_account_title')}
      </Text>
      <Text size="sm" style={{ color: 'var(--mantine-color-dimmed)' }}>
        {t('no_account_help')}{' '}
        <a {...anchorProps} href={`mailto:${salesContact}`}>
          {salesContact}
        </a>
      </Text>
      <div style={{ overflowWrap: 'anywhere', marginTop: rem(4) }}>
        <TextLink to={refusedEmail ? `${paths.requestAccess}?email=${encodeURIComponent(refusedEmail)}` : paths.requestAccess}>
          {refusedEmail ? t('request_access_for', { email: refusedEmail }) : t('request_access_link')}
        </TextLink>
      </div>
    </div>
  );
}
