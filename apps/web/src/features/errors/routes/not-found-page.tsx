import { Center } from '@mantine/core';
import { IconMapPinQuestion } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Logo } from '@/components/logo';
import { ErrorMessage } from '../components/error-message';

/** Any other path: not found, with the way back to the homepage. */
export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <Center mih="100dvh" p="md" component="main" bg="gray.0">
      <ErrorMessage
        above={<Logo size={36} />}
        icon={<IconMapPinQuestion size={34} />}
        title={t('not_found_title')}
        text={t('not_found_text')}
        maw={520}
      />
    </Center>
  );
}
