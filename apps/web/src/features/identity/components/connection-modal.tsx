import { useState } from 'react';
import { Button, Checkbox, Group, PasswordInput, Stack, Switch, Text, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm, useWatch, type FieldPath } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { ssoConnectionCreateSchema, type Organization, type SsoConnection } from '@partner-portal/contracts';
import { errorLines } from '@/components/notify';
import { ApiError } from '@/lib/api';
import { fieldErrorMessages } from '@/lib/errors';
import { useDomains } from '../api/domains';
import { useCreateSsoConnection, useUpdateSsoConnection } from '../api/sso-connections';
import { verifiedDomains } from '../lib/identity';
import { ModalFrame, ProblemSummary } from '@/components/modal-frame';

const formSchema = z.object({
  name: ssoConnectionCreateSchema.shape.name,
  issuer: ssoConnectionCreateSchema.shape.issuer,
  client_id: ssoConnectionCreateSchema.shape.client_id,
  client_secret: z.string().max(1000),
  remove_secret: z.boolean(),
  domains: z.array(z.string()).min(1, { message: 'required_field' }),
  just_in_time: z.boolean(),
});
type Values = z.input<typeof formSchema>;
type Checked = z.output<typeof formSchema>;
const FIELDS: FieldPath<Values>[] = ['name', 'issuer', 'client_id', 'client_secret', 'domains'];

/**
 * Add or edit a sign-in connection of the organization: name, issuer URL, client id, client secret
 * (never shown back: empty keeps it on edit; without one the portal is a public client with PKCE),
 * the domains it signs in (among the verified domains at or above the organization), and
 * just-in-time accounts. The server discovers the issuer when saving: its refusals show above the buttons.
 */
export function ConnectionModal({
  organization,
  connection,
  onClose,
  onSaved,
}: {
  organization: Organization;
  connection?: SsoConnection;
  onClose: () => void;
  onSaved: (name: string) => void;
}) {
  const { t } = useTranslation();
  const create = useCreateSsoConnection(organization.id);
  const update = useUpdateSsoConnection(organization.id);
  const domains = useDomains(organization.id, true);
  const [problems, setProblems] = useState<string[] | null>(null);
  const usable = verifiedDomains(domains.data ?? []);
  // a domain the connection has that is verified no more stays on offer, to take away
  const offered = [...new Set([...usable, ...(connection?.domains ?? [])])].sort();
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<Values, unknown, Checked>({
    resolver: zodResolver(formSchema),
    defaultValues: {
      name: connection?.name ?? '',
      issuer: connection?.issuer ?? '',
      client_id: connection?.client_id ?? '',
      client_secret: '',
      remove_secret: false,
      domains: connection?.domains ?? (usable.length === 1 ? usable : []),
      just_in_time: connection?.just_in_time ?? false,
    },
  });
  const removeSecret = useWatch({ control, name: 'remove_secret' });

  const onError = (error: unknown) => {
    const fields = fieldErrorMessages(error, (key, options) => t(key, options ?? {}));
    let placed = false;
    for (const [wire, message] of Object.entries(fields)) {
      const field = (wire.startsWith('domains') ? 'domains' : wire) as FieldPath<Values>;
      if (!FIELDS.includes(field)) continue;
      setError(field, { message });
      placed = true;
    }
    if (!placed || !(error instanceof ApiError) || error.status !== 400) setProblems(errorLines(error));
  };

  const submit = handleSubmit((values) => {
    setProblems(null);
    const secret = values.client_secret.trim();
    const common = {
      name: values.name,
      issuer: values.issuer,
      client_id: values.client_id,
      domains: values.domains,
      just_in_time: values.just_in_time,
    };
    if (connection) {
      const change = values.remove_secret ? { client_secret: null } : secret ? { client_secret: secret } : {};
      update.mutate({ id: connection.id, ...common, ...change }, { onSuccess: () => onSaved(values.name), onError });
    } else {
      // made inactive: its managers test it and see who it will serve before they switch it on
      create.mutate(
        { ...common, active: false, ...(secret ? { client_secret: secret } : {}) },
        { onSuccess: () => onSaved(values.name), onError },
      );
    }
  });

  const message = (key: string | undefined) => (key ? t(key) : undefined);
  const hasSecret = connection?.has_client_secret !== false && connection !== undefined;
  return (
    <ModalFrame
      title={connection ? t('identity.connection_edit_title', { name: connection.name }) : t('identity.connection_add_title')}
      onClose={onClose}
      size="lg"
    >
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Stack gap="sm">
          <TextInput
            label={t('identity.name')}
            description={t('identity.name_description')}
            required
            maxLength={100}
            data-autofocus
            {...register('name')}
            error={message(errors.name?.message)}
          />
          <TextInput
            label={t('identity.issuer')}
            description={t('identity.issuer_description')}
            placeholder="https://login.microsoftonline.com/…/v2.0"
            type="url"
            required
            spellCheck={false}
            maxLength={500}
            {...register('issuer')}
            error={message(errors.issuer?.message)}
          />
          <TextInput
            label={t('identity.client_id')}
            required
            spellCheck={false}
            autoComplete="off"
            maxLength={300}
            {...register('client_id')}
            error={message(errors.client_id?.message)}
          />
          <PasswordInput
            label={t('identity.client_secret')}
            description={connection ? t('identity.client_secret_edit_description') : t('identity.client_secret_create_description')}
            autoComplete="new-password"
            maxLength={1000}
            disabled={removeSecret}
            {...register('client_secret')}
            error={message(errors.client_secret?.message)}
          />
          {hasSecret ? <Checkbox label={t('identity.client_secret_remove')} {...register('remove_secret')} /> : null}
          <Controller
            control={control}
            name="domains"
            render={({ field }) => (
              <Checkbox.Group
                label={t('identity.domains')}
                description={t('identity.domains_description')}
                withAsterisk
                value={field.value}
                onChange={field.onChange}
                error={message(errors.domains?.message ?? errors.domains?.root?.message)}
              >
                <Stack gap={6} mt={6}>
                  {offered.map((domain) => (
                    <Checkbox
                      key={domain}
                      value={domain}
                      label={usable.includes(domain) ? domain : t('identity.domain_not_verified_now', { domain })}
                      styles={{ label: { overflowWrap: 'anywhere' } }}
                    />
                  ))}
                </Stack>
              </Checkbox.Group>
            )}
          />
          <Controller
            control={control}
            name="just_in_time"
            render={({ field }) => (
              <Switch
                label={t('identity.jit')}
                description={t('identity.jit_description', { name: organization.name })}
                checked={field.value}
                onChange={(e) => field.onChange(e.currentTarget.checked)}
                mt="xs"
              />
            )}
          />
          {offered.length === 0 ? (
            <Text size="sm" c="gray.7">
              {t('identity.connection_needs_domain')}
            </Text>
          ) : null}
          <ProblemSummary lines={problems} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('identity.cancel')}
            </Button>
            <Button type="submit" loading={create.isPending || update.isPending}>
              {t('identity.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </ModalFrame>
  );
}
