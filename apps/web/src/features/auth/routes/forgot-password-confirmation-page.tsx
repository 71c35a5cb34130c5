import { Alert, Anchor, Stack, Text, Title } from '@mantine/core';
import { IconMailCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/lib/paths';

/** After a reset request: what to do next, and what to do when no e-mail arrives. */
export function ForgotPasswordConfirmationPage() {
  const { t } = useTranslation();
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('forgot_password_confirmation_title')}
      </Title>
      <Alert color="green" variant="light" icon={<IconMailCheck aria-hidden />}>
        {t('forgot_password_confirmation_text')}
      </Alert>
      <Text size="sm">{t('forgot_password_not_received')}</Text>
      <Anchor component={Link} to={paths.login} size="sm">
        {t('back_to_login')}
      </Anchor>
    </Stack>
  );
}
