import { Container } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ErrorMessage } from '../components/error-message';

/** /forbidden: no access to the requested page. */
export function ForbiddenPage() {
  const { t } = useTranslation();
  return (
    <Container size="sm" py={64}>
      <ErrorMessage icon={<IconLock size={34} />} color="red" title={t('forbidden_title')} text={t('forbidden')} />
    </Container>
  );
}
