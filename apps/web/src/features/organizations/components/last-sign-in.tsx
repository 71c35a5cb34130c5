import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useFormatDate } from '@/lib/dates';

/** A member's last sign-in, in the interface language; "Never signed in" when there was none. */
export function LastSignIn({ value }: { value: string | null | undefined }) {
  const { t } = useTranslation();
  const formatDate = useFormatDate();
  if (!value)
    return (
      <Text span size="sm" c="gray.7" data-last-sign-in="never">
        {t('adm_never_signed_in')}
      </Text>
    );
  return (
    <time dateTime={value} data-last-sign-in={value}>
      {formatDate(value)}
    </time>
  );
}
