import { useLayoutEffect, useRef, useState } from 'react';
import { Alert, Anchor, Button, Checkbox, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Controller, useForm, useWatch, type FieldPath } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Trans, useTranslation } from 'react-i18next';
import { userLanguageFor, type Invitation } from '@partner-portal/contracts';
import { ApiError } from '@/lib/api';
import { INITIAL_CONFIGURATION, configurationQuery } from '@/lib/config';
import { RequiredText } from '@/components/form-fields';
import { LanguageSelect } from '@/components/language-select';
import { errorText } from '@/components/notify';
import { fieldErrorMessages } from '@/lib/errors';
import { PasswordWithHints } from '@/components/password-with-hints';
import { handOverPrerenderedForm, submitHeldSubmission } from '@/lib/hand-over';
import { useAcceptInvitation } from '../api/accept-invitation';
import { externalRegistrationSchema, registrationSchema, type Registration, type RegistrationInput } from '../lib/registration';

type Values = RegistrationInput;

/**
 * The registration form of an invitation (docs/product.md, "Screens"): greeting, disabled e-mail, names, preferred
 * language, (native accounts) new and confirm password with hints, newsletter opt-in and the
 * required agreement with the privacy statement and licence links (new tab).
 *
 * Without the invitation (`null`, while it loads) the form is there already: the pre-rendered page
 * (docs/decisions/021-pre-rendered-public-pages.md). It takes over what was typed before the
 * scripts once it has hydrated, fills in the invitation's parts when it comes (its language only
 * where none was picked), and only then sends a registration asked for meanwhile.
 */
export function RegistrationForm({
  invitation,
  code,
  external,
  onRegistered,
}: {
  invitation: Invitation | null;
  code: string;
  external: boolean;
  onRegistered: () => void;
}) {
  const { t, i18n } = useTranslation();
  const { data: config = INITIAL_CONFIGURATION } = useQuery(configurationQuery);
  const accept = useAcceptInvitation();
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    control,
    handleSubmit,
    setError,
    getFieldState,
    resetField,
    formState: { errors },
  } = useForm<Values, unknown, Registration>({
    resolver: zodResolver(external ? (externalRegistrationSchema as unknown as typeof registrationSchema) : registrationSchema),
    defaultValues: {
      first_name: '',
      last_name: '',
      // the page's language until the invitation's is known
      language_code: userLanguageFor(invitation?.language_code ?? i18n.language),
      password: '',
      password_confirmation: '',
      opt_in_for_newsletter: false,
      accept_agreement: false,
    },
  });
  const password = useWatch({ control, name: 'password' });
  const form = useRef<HTMLFormElement>(null);
  /** the form submitted after hydration, before the invitation had loaded */
  const queued = useRef(false);

  // hydrated: what was typed before the scripts is typed again (src/prerender/hand-over.ts)
  useLayoutEffect(() => handOverPrerenderedForm({ own: true }), []);
  const loadedLanguage = invitation ? userLanguageFor(invitation.language_code) : null;
  useLayoutEffect(() => {
    if (!loadedLanguage) return;
    if (!getFieldState('language_code').isDirty) resetField('language_code', { defaultValue: loadedLanguage });
    // a submission made while the invitation loaded goes on now
    submitHeldSubmission();
    if (queued.current) {
      queued.current = false;
      window.setTimeout(() => form.current?.requestSubmit(), 0);
    }
  }, [loadedLanguage, getFieldState, resetField]);

  const submit = handleSubmit((values) => {
    if (!invitation) return;
    setFailure(null);
    accept.mutate(
      {
        invitationId: invitation.invitation_id,
        invitation_code: code,
        email_address: invitation.email_address,
        first_name: values.first_name,
        last_name: values.last_name,
        language_code: values.language_code,
        ...(external ? {} : { password: values.password, password_confirmation: values.password_confirmation }),
        opt_in_for_newsletter: values.opt_in_for_newsletter,
        accept_agreement: values.accept_agreement,
      },
      {
        onSuccess: onRegistered,
        onError: (error) => {
          const fields = fieldErrorMessages(error, (key, options) => t(key, options ?? {}));
          let placed = false;
          for (const [field, message] of Object.entries(fields)) {
            if (['first_name', 'last_name', 'language_code', 'password', 'password_confirmation', 'accept_agreement'].includes(field)) {
              setError(field as FieldPath<Values>, { message });
              placed = true;
            }
          }
          if (!placed || !(error instanceof ApiError) || error.status !== 400) setFailure(errorText(error));
        },
      },
    );
  });

  const message = (key: string | undefined) => (key ? t(key) : undefined);
  return (
    <form
      ref={form}
      data-hand-over="own"
      onSubmit={(e) => {
        if (invitation) return void submit(e);
        e.preventDefault();
        queued.current = true;
      }}
      noValidate
    >
      <Stack gap="sm">
        <Title order={1} size="h2">
          {t('inv_title')}
        </Title>
        <Text>
          {invitation?.organization_name
            ? t('inv_greeting_organization', { organization: invitation.organization_name })
            : t('inv_greeting')}
        </Text>
        {external ? (
          <Text size="sm" c="gray.7">
            {t('inv_external_intro')}
          </Text>
        ) : null}
        {failure ? (
          <Alert color="red" role="alert" style={{ whiteSpace: 'pre-line' }}>
            {failure}
          </Alert>
        ) : null}
        <TextInput
          label={t('inv_email')}
          value={invitation?.email_address ?? ''}
          readOnly
          variant="filled"
          styles={{ input: { color: 'var(--mantine-color-dark-9)', cursor: 'default' } }}
        />
        <RequiredText
          label={t('inv_first_name')}
          autoComplete="given-name"
          {...register('first_name')}
          error={message(errors.first_name?.message)}
        />
        <RequiredText
          label={t('inv_last_name')}
          autoComplete="family-name"
          {...register('last_name')}
          error={message(errors.last_name?.message)}
        />
        <Controller
          control={control}
          name="language_code"
          render={({ field }) => <LanguageSelect label={t('inv_language')} {...field} error={message(errors.language_code?.message)} />}
        />
        {external ? null : (
          <>
            <PasswordWithHints
              label={t('inv_password')}
              required
              autoComplete="new-password"
              {...register('password')}
              value={password}
              error={message(errors.password?.message)}
            />
            <PasswordInput
              label={t('inv_password_confirm')}
              required
              autoComplete="new-password"
              {...register('password_confirmation')}
              error={message(errors.password_confirmation?.message)}
            />
          </>
        )}
        <Checkbox label={t('inv_newsletter')} {...register('opt_in_for_newsletter')} />
        <Checkbox
          required
          {...register('accept_agreement')}
          error={message(errors.accept_agreement?.message)}
          label={
            <Trans
              i18nKey="inv_agreement"
              components={{
                privacy: <Anchor href={config.privacy_statement_url} target="_blank" rel="noopener noreferrer" inherit />,
                eula: <Anchor href={config.eula_url} target="_blank" rel="noopener noreferrer" inherit />,
              }}
            />
          }
        />
        <Button type="submit" loading={accept.isPending} mt="sm">
          {external ? t('inv_register_external') : t('inv_register')}
        </Button>
      </Stack>
    </form>
  );
}
