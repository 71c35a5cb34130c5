import { useEffect } from 'react';
import { Alert, Button, Group, Stack, TextInput } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { useQueryClient } from '@tanstack/react-query';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import {
  interfaceLanguageFor,
  updateProfileRequestSchema,
  userLanguageFor,
  type UpdateProfileRequest,
  type UserInfo,
} from '@partner-portal/contracts';
import { RequiredText } from '@/components/form-fields';
import { LanguageSelect } from '@/components/language-select';
import { LANGUAGE_NAMES } from '@/components/language-names';
import { notifyError, notifySuccess } from '@/components/notify';
import { PageCard } from '@/components/page-card';
import { PageLoader } from '@/components/page-loader';
import { describeError } from '@/lib/errors';
import { changeLanguage, i18n } from '@/lib/i18n';
import { paths } from '@/lib/paths';
import { sessionQueryKey, useSessionUser } from '@/lib/session';
import { updateProfile } from '../api/update-profile';
import { ActiveSessions } from '../components/active-sessions';
import { SupportSessions } from '../components/support-sessions';
import { SignInSecurity } from '../components/sign-in-security';

/** Profile (docs/product.md, "Screens"): read-only e-mail, names and the preferred language. */
/** A read-only field: a grey surface, but its text keeps full contrast (docs/design.md, fields). */
const READ_ONLY_STYLES = { input: { color: 'var(--mantine-color-dark-9)', cursor: 'default' } };

export function ProfilePage() {
  const { data: user } = useSessionUser();
  if (!user) return <PageLoader minHeight="50vh" />;
  return <ProfileForm user={user} />;
}

function ProfileForm({ user }: { user: UserInfo }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const saved = userLanguageFor(user.languageCode);
  const form = useForm<z.input<typeof updateProfileRequestSchema>, unknown, UpdateProfileRequest>({
    resolver: zodResolver(updateProfileRequestSchema),
    defaultValues: { first_name: user.firstName, last_name: user.lastName, language_code: saved },
  });
  const { errors, isSubmitting } = form.formState;
  const language = useWatch({ control: form.control, name: 'language_code' });
  // a language saved meanwhile (the header's picker) is the form's too
  useEffect(() => form.resetField('language_code', { defaultValue: saved }), [form, saved]);

  // Leaving without saving puts the interface back in the saved language.
  useEffect(
    () => () => {
      const current = queryClient.getQueryData<UserInfo | null>(sessionQueryKey);
      const wanted = interfaceLanguageFor(current?.languageCode);
      if (current && i18n.language !== wanted) void changeLanguage(wanted);
    },
    [queryClient],
  );

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await updateProfile(values);
      await queryClient.invalidateQueries({ queryKey: sessionQueryKey });
      notifySuccess(t('profile_updated'));
      await navigate(paths.home);
    } catch (err) {
      const view = describeError(err);
      if (view.kind === 'fields') {
        for (const [field, keys] of Object.entries(view.fields)) {
          if (field === 'first_name' || field === 'last_name' || field === 'language_code') form.setError(field, { message: keys[0] });
        }
        if (Object.keys(view.fields).length === 0) notifyError(err);
      } else notifyError(err);
    }
  });

  const fieldError = (key?: string) => (key ? t(key, { defaultValue: key }) : undefined);

  return (
    <PageCard
      size={560}
      title={t('profile_title')}
      after={
        <>
          <ActiveSessions />
          <SignInSecurity user={user} />
          <SupportSessions />
        </>
      }
    >
      <form onSubmit={(e) => void onSubmit(e)} noValidate>
        <Stack gap="md">
          <TextInput label={t('email_address')} value={user.email} readOnly variant="filled" styles={READ_ONLY_STYLES} />
          <RequiredText
            label={t('first_name')}
            autoComplete="given-name"
            {...form.register('first_name')}
            error={fieldError(errors.first_name?.message)}
          />
          <RequiredText
            label={t('last_name')}
            autoComplete="family-name"
            {...form.register('last_name')}
            error={fieldError(errors.last_name?.message)}
          />
          <Controller
            control={form.control}
            name="language_code"
            render={({ field }) => (
              <LanguageSelect label={t('preferred_language')} {...field} error={fieldError(errors.language_code?.message)} />
            )}
          />
          {language !== saved && (
            <Alert color="yellow" variant="light" icon={<IconInfoCircle aria-hidden />} role="status">
              {t('language_differs_warning', { language: LANGUAGE_NAMES[saved] })}
            </Alert>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" component={Link} to={paths.home}>
              {t('cancel')}
            </Button>
            <Button type="submit" loading={isSubmitting}>
              {t('save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </PageCard>
  );
}
