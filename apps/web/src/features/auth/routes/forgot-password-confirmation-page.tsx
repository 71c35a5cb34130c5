import { Alert, Text } from '@mantine/core';
import { IconMailCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { paths } from '@/lib/paths';
import { TextLink } from '@/components/text-link';
import { TitledStack } from '@/components/titled-stack';

/** After a reset request: what to do next, and what to do when no e-mail arrives. */
export function ForgotPasswordConfirmationPage() {
  const { t } = useTranslation();
  return (
    <TitledStack title={t('forgot_password_confirmation_title')} order={1} size="h2" gap="md">
      <Alert color="green" variant="light" icon={<IconMailCheck aria-hidden />}>
        {t('forgot_password_confirmation_text')}
      </Alert>
      <Text size="sm">{t('forgot_password_not_received')}</Text>
      <TextLink to={paths.login}>{t('back_to_login')}</TextLink>
    </TitledStack>
  );
}
