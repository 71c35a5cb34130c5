import { use, useEffect, useRef, useState } from 'react';
import { Alert, Button, Stack, Text, Textarea, Title } from '@mantine/core';
import { IconAlertCircle, IconMailForward } from '@tabler/icons-react';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, type FieldPath } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { z } from 'zod';
import { accessRequestCreateSchema, userLanguageFor } from '@partner-portal/contracts';
import { RequiredText } from '@/components/form-fields';
import { errorText } from '@/components/notify';
import { TextLink } from '@/components/text-link';
import { ApiError, retryAfterMs } from '@/lib/api';
import { fieldErrorMessages } from '@/lib/errors';
import { paths } from '@/lib/paths';
import { requestAccess } from '../api/request-access';
import { authLocales } from '../lib/locales';
import { waitInWords } from '../lib/wait-time';

/** The form's fields: the contract's, without the language (the interface language is sent). */
const formSchema = accessRequestCreateSchema.pick({ email_address: true, first_name: true, last_name: true, message: true });
type FormInput = z.input<typeof formSchema>;
type FormOutput = z.output<typeof formSchema>;
const FIELDS: FieldPath<FormInput>[] = ['email_address', 'first_name', 'last_name', 'message'];

/**
 * /request-access (the operating contract, "Access requests"): a visitor without an account asks
 * for one. The address comes filled in from ?email= (the login page's link after a refused
 * password). The portal answers the same whatever the address, so the confirmation says the same
 * whatever happened: nobody learns here who has an account or which domains the portal serves.
 */
export function RequestAccessPage() {
  use(authLocales());
  const { t, i18n } = useTranslation();
  const [params] = useSearchParams();
  const prefilled = params.get('email')?.slice(0, 100) ?? '';
  const [sent, setSent] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const sentHeading = useRef<HTMLHeadingElement>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(formSchema),
    defaultValues: { email_address: prefilled, first_name: '', last_name: '', message: '' },
  });

  // the confirmation replaces the form: the focus goes to its heading
  useEffect(() => {
    if (sent) sentHeading.current?.focus();
  }, [sent]);

  const submit = handleSubmit(async (values) => {
    setFailure(null);
    try {
      await requestAccess({
        email_address: values.email_address,
        first_name: values.first_name,
        last_name: values.last_name,
        message: values.message?.trim() ? values.message.trim() : null,
        language_code: userLanguageFor(i18n.resolvedLanguage ?? i18n.language),
      });
      setSent(true);
    } catch (error) {
      if (error instanceof ApiError && error.status === 429) {
        const wait = retryAfterMs(error.retryAfter);
        setFailure(
          wait === null
            ? t('too_many_requests')
            : `${t('too_many_requests')}. ${t('accessRequest.try_again_in', { wait: waitInWords(wait / 1000, i18n.resolvedLanguage ?? i18n.language) })}`,
        );
        return;
      }
      const fields = fieldErrorMessages(error, (key, options) => t(key, options ?? {}));
      let placed = false;
      for (const [field, message] of Object.entries(fields)) {
        if (!(FIELDS as string[]).includes(field)) continue;
        setError(field as FieldPath<FormInput>, { message });
        placed = true;
      }
      if (!placed) setFailure(errorText(error));
    }
  });

  if (sent) {
    return (
      <Stack gap="md">
        <Title order={1} size="h2" ref={sentHeading} tabIndex={-1}>
          {t('accessRequest.sent_title')}
        </Title>
        <Alert color="green" variant="light" icon={<IconMailForward aria-hidden />} role="status">
          {t('accessRequest.sent_text')}
        </Alert>
        <Text size="sm">{t('accessRequest.sent_next')}</Text>
        <TextLink to={paths.login}>{t('back_to_login')}</TextLink>
      </Stack>
    );
  }

  const message = (key: string | undefined) => (key ? t(key) : undefined);
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('accessRequest.title')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('accessRequest.intro')}
      </Text>
      {failure ? (
        <Alert color="red" variant="light" icon={<IconAlertCircle aria-hidden />} role="alert">
          {failure}
        </Alert>
      ) : null}
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Stack gap="sm">
          <RequiredText
            label={t('email_address')}
            type="email"
            autoComplete="email"
            // the address from the login page is there already: the names come next
            autoFocus={!prefilled}
            {...register('email_address')}
            error={message(errors.email_address?.message)}
          />
          <RequiredText
            label={t('first_name')}
            autoComplete="given-name"
            autoFocus={!!prefilled}
            {...register('first_name')}
            error={message(errors.first_name?.message)}
          />
          <RequiredText
            label={t('last_name')}
            autoComplete="family-name"
            {...register('last_name')}
            error={message(errors.last_name?.message)}
          />
          <Textarea
            label={t('accessRequest.message')}
            description={t('accessRequest.message_description')}
            autosize
            minRows={3}
            maxRows={8}
            maxLength={2000}
            {...register('message')}
            error={message(errors.message?.message)}
          />
          <Button type="submit" loading={isSubmitting} fullWidth mt="xs">
            {t('accessRequest.send')}
          </Button>
        </Stack>
      </form>
      <TextLink to={paths.login}>{t('back_to_login')}</TextLink>
    </Stack>
  );
}
