import { useState } from 'react';
import { Button, Stack, Text } from '@mantine/core';
import { IconClockExclamation } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { FormErrors } from '@/components/form-errors';
import { RequiredPassword } from '@/components/form-fields';
import { notifyError, notifySuccess } from '@/components/notify';
import { PageLoader } from '@/components/page-loader';
import { PasswordWithHints } from '@/components/password-with-hints';
import { ApiError } from '@/lib/api';
import { describeError } from '@/lib/errors';
import { passwordFormErrors } from '@/lib/password-form';
import { paths } from '@/lib/paths';
import { TitledStack } from '@/components/titled-stack';
import { resetPassword } from '../api/reset-password';
import { validateResetToken } from '../api/validate-reset-token';
import { MessageWithLink } from '../components/message-with-link';

interface Values {
  password: string;
  confirm_password: string;
}

/**
 * Reset password (docs/product.md, "Screens" and "Flows and states"): the link (userId, code) is checked first. A good link shows the
 * new and confirm fields; a used or expired one asks for a new request.
 */
export function ResetPasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const userId = params.get('userId') ?? '';
  const code = params.get('code') ?? '';
  const [expired, setExpired] = useState(false);
  const [messages, setMessages] = useState<string[]>([]);

  const check = useQuery({
    queryKey: ['identity', 'validate-reset-token', userId, code],
    queryFn: () => validateResetToken({ user_id: userId, token: code }),
    enabled: !!userId && !!code,
    retry: false,
    staleTime: Infinity,
    gcTime: 0,
  });
  const form = useForm<Values>({ defaultValues: { password: '', confirm_password: '' } });
  const { isSubmitting, isSubmitSuccessful } = form.formState;

  if (userId && code && check.isPending) return <PageLoader minHeight={240} />;
  const valid = !!userId && !!code && check.data?.is_valid === true && !expired;

  if (!valid) {
    return (
      <MessageWithLink
        title={t('reset_link_expired_title')}
        alert={{ color: 'orange', Icon: IconClockExclamation, text: t('reset_link_expired') }}
        next={{ text: t('submit_new_request'), to: paths.forgotPassword, link: t('request_new_link') }}
      />
    );
  }

  const onSubmit = form.handleSubmit(async (values) => {
    const problems = passwordFormErrors([values.password, values.confirm_password], values.password, values.confirm_password);
    setMessages(problems.map((k) => t(k)));
    if (problems.length > 0) throw new Error('invalid form');
    try {
      await resetPassword({
        user_id: userId,
        token: check.data?.reset_token ?? code,
        password: values.password,
        confirm_password: values.confirm_password,
      });
      notifySuccess(t('password_changed'));
      await navigate(paths.login, { replace: true });
    } catch (err) {
      const view = describeError(err);
      if (err instanceof ApiError && (err.key === 'reset_link_expired' || err.status === 404)) setExpired(true);
      else if (view.kind === 'fields') setMessages(view.summary.map((k) => t(k, { defaultValue: k })));
      else notifyError(err);
      throw err;
    }
  });

  return (
    <TitledStack title={t('reset_password_title')} order={1} size="h2" gap="md">
      <Text size="sm" c="dimmed">
        {t('reset_password_text')}
      </Text>
      <FormErrors messages={messages} />
      <form onSubmit={(e) => void onSubmit(e).catch(() => undefined)} noValidate>
        <Stack gap="md">
          <Controller
            control={form.control}
            name="password"
            render={({ field }) => (
              <PasswordWithHints {...field} label={t('new_password')} autoComplete="new-password" required autoFocus maxLength={128} />
            )}
          />
          <RequiredPassword label={t('confirm_password')} autoComplete="new-password" {...form.register('confirm_password')} />
          <Button type="submit" loading={isSubmitting} disabled={isSubmitSuccessful} fullWidth>
            {t('reset_password_button')}
          </Button>
        </Stack>
      </form>
    </TitledStack>
  );
}
