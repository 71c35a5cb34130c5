import { Button, Stack, Text, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { forgotPasswordRequestSchema, type ForgotPasswordRequest } from '@partner-portal/contracts';
import { notifyError } from '@/components/notify';
import { ApiError } from '@/lib/api';
import { paths } from '@/lib/paths';
import { TextLink } from '@/components/text-link';
import { TitledStack } from '@/components/titled-stack';
import { forgotPassword } from '../api/forgot-password';

/**
 * Forgot password (docs/product.md, "Screens"): an e-mail address (filled in from ?email=, as the
 * login page's link does when sign-in is paused); a reset link is sent when the account exists.
 */
export function ForgotPasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const form = useForm<ForgotPasswordRequest>({
    resolver: zodResolver(forgotPasswordRequestSchema),
    defaultValues: { email_address: params.get('email')?.slice(0, 100) ?? '' },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await forgotPassword(values);
    } catch (err) {
      // docs/product.md, "Errors": 429 is silently ignored here; the visitor sees the same confirmation
      if (!(err instanceof ApiError && err.status === 429)) {
        if (err instanceof ApiError && err.status === 400) form.setError('email_address', { message: 'invalid_email_address' });
        else notifyError(err, { ignoreTooManyRequests: true });
        return;
      }
    }
    await navigate(paths.forgotPasswordConfirmation);
  });

  return (
    <TitledStack title={t('forgot_password_title')} order={1} size="h2" gap="md">
      <Text size="sm" c="dimmed">
        {t('forgot_password_text')}
      </Text>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <TextInput
            label={t('email_address')}
            type="email"
            autoComplete="email"
            required
            autoFocus
            maxLength={100}
            {...form.register('email_address')}
            error={errors.email_address?.message ? t(errors.email_address.message) : undefined}
          />
          <Button type="submit" loading={isSubmitting} fullWidth>
            {t('send')}
          </Button>
        </Stack>
      </form>
      <TextLink to={paths.login}>{t('back_to_login')}</TextLink>
    </TitledStack>
  );
}
