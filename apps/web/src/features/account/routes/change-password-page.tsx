import { useState } from 'react';
import { Alert, Button, Stack, Text } from '@mantine/core';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { ChangePasswordRequest } from '@partner-portal/contracts';
import { FormErrors } from '@/components/form-errors';
import { RequiredPassword } from '@/components/form-fields';
import { PageCard } from '@/components/page-card';
import { notifyError, notifySuccess } from '@/components/notify';
import { PasswordWithHints } from '@/components/password-with-hints';
import { ApiError } from '@/lib/api';
import { describeError } from '@/lib/errors';
import { passwordFormErrors } from '@/lib/password-form';
import { paths } from '@/lib/paths';
import { reloadSessionUser, useSessionUser } from '@/lib/session';
import { changePassword } from '../api/change-password';

/**
 * Change password (docs/product.md, "Screens" and "Validation"): current, new and confirm. All errors show together; hints show
 * while the new password has focus; the button stays disabled after success.
 */
export function ChangePasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [messages, setMessages] = useState<string[]>([]);
  const [done, setDone] = useState(false);
  const required = useSessionUser().data?.mustChangePassword === true;
  const form = useForm<ChangePasswordRequest>({ defaultValues: { current_password: '', new_password: '', confirm_password: '' } });
  const { isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    const problems = passwordFormErrors(
      [values.current_password, values.new_password, values.confirm_password],
      values.new_password,
      values.confirm_password,
    );
    setMessages(problems.map((k) => t(k)));
    if (problems.length > 0) return;
    try {
      await changePassword(values);
      setDone(true);
      notifySuccess(t('password_changed'));
      if (required) await reloadSessionUser().catch(() => null);
      await navigate(paths.home);
    } catch (err) {
      if (err instanceof ApiError && err.status === 429) return; // docs/product.md, "Errors": silently ignored here
      const view = describeError(err);
      if (view.kind === 'fields') setMessages(view.summary.map((k) => t(k, { defaultValue: k })));
      else if (view.kind === 'conflict') setMessages([t(view.key, { defaultValue: t('invalid_operation') })]);
      else notifyError(err, { ignoreTooManyRequests: true });
    }
  });

  return (
    <PageCard size={520} title={t('change_password_title')}>
      {required ? (
        <Alert
          color="yellow"
          variant="light"
          title={t('password_change_required_title')}
          role="status"
          styles={{ title: { color: 'var(--mantine-color-dark-9)' } }}
        >
          {t('password_change_required_text')}
        </Alert>
      ) : null}
      <Text size="sm" c="dimmed">
        {t('change_password_text')}
      </Text>
      <FormErrors messages={messages} />
      <form onSubmit={(e) => void onSubmit(e)} noValidate>
        <Stack gap="md">
          <RequiredPassword label={t('current_password')} autoComplete="current-password" {...form.register('current_password')} />
          <Controller
            control={form.control}
            name="new_password"
            render={({ field }) => (
              <PasswordWithHints {...field} label={t('new_password')} autoComplete="new-password" required maxLength={128} />
            )}
          />
          <RequiredPassword label={t('confirm_password')} autoComplete="new-password" {...form.register('confirm_password')} />
          <Button type="submit" loading={isSubmitting} disabled={done}>
            {t('change_password_button')}
          </Button>
        </Stack>
      </form>
    </PageCard>
  );
}
