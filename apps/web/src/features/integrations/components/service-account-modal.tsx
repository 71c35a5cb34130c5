import { useId, useState } from 'react';
import { Button, Checkbox, Group, Stack, Text, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { SERVICE_ACCOUNT_SCOPE, serviceAccountCreateSchema, type ServiceAccountCreated, type UserInfo } from '@partner-portal/contracts';
import { errorLines } from '@/components/notify';
import { fieldErrorMessages } from '@/lib/errors';
import { tokenEndpoint, useCreateServiceAccount } from '../api/service-accounts';
import { withRightsInWords } from '@/lib/rights-in-words';
import { ModalFrame, ProblemSummary } from '@/components/modal-frame';
import { OnceShownModal } from './once-shown';

/** The server's own rules: a name, and at least one right (service_account_needs_a_right). */
const formSchema = serviceAccountCreateSchema;
type Values = z.input<typeof formSchema>;
type Checked = z.output<typeof formSchema>;

/**
 * Create a service account of the organization: its name and the manager rights it gets, each
 * offered only when the creator holds it (the server refuses more: cannot_grant_rights_not_held).
 * Then its client id and secret, the secret this once, with the token endpoint and the scope.
 */
export function ServiceAccountModal({ organizationId, user, onClose }: { organizationId: string; user: UserInfo; onClose: () => void }) {
  const { t } = useTranslation();
  const create = useCreateServiceAccount(organizationId);
  const [problems, setProblems] = useState<string[] | null>(null);
  const [created, setCreated] = useState<(ServiceAccountCreated & { name: string }) | null>(null);
  const rightsId = useId();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<Values, unknown, Checked>({
    resolver: zodResolver(formSchema),
    defaultValues: { name: '', user_manager: false, organization_manager: false },
  });

  const submit = handleSubmit((values) => {
    setProblems(null);
    create.mutate(values, {
      onSuccess: (answer) => setCreated({ ...answer, name: values.name }),
      onError: (error) => {
        const field = fieldErrorMessages(error, (key, options) => t(key, options ?? {})).name;
        if (field) setError('name', { message: field });
        else setProblems(errorLines(withRightsInWords(error, t)));
      },
    });
  });

  if (created)
    return (
      <OnceShownModal
        title={t('integrations.account_created_title', { name: created.name })}
        intro={t('integrations.account_created_intro')}
        values={[
          { label: t('integrations.client_id'), value: created.client_id, testId: 'client-id' },
          { label: t('integrations.client_secret'), value: created.client_secret, testId: 'client-secret', secret: true },
          { label: t('integrations.token_endpoint'), value: tokenEndpoint(window.location.origin), testId: 'token-endpoint' },
          { label: t('integrations.scope'), value: SERVICE_ACCOUNT_SCOPE, testId: 'scope' },
        ]}
        onClose={onClose}
      />
    );

  const message = errors.name?.message;
  const rightsError = errors.user_manager?.message ?? errors.organization_manager?.message;
  return (
    <ModalFrame title={t('integrations.account_add_title')} onClose={onClose}>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Stack>
          <TextInput
            label={t('integrations.name')}
            description={t('integrations.account_name_description')}
            required
            autoComplete="off"
            maxLength={100}
            data-autofocus
            {...register('name')}
            error={message ? t(message) : undefined}
          />
          <Stack
            gap={6}
            role="group"
            aria-labelledby={rightsId}
            aria-describedby={rightsError ? `${rightsId}-description ${rightsId}-error` : `${rightsId}-description`}
          >
            <div>
              <Text size="sm" fw={500} id={rightsId}>
                {t('integrations.rights')}
              </Text>
              <Text size="xs" c="gray.7" id={`${rightsId}-description`}>
                {t('integrations.account_rights_description')}
              </Text>
            </div>
            <Checkbox
              label={t('integrations.right_user_manager')}
              description={user.userManager ? t('integrations.right_user_manager_description') : t('integrations.right_not_held')}
              disabled={!user.userManager}
              {...register('user_manager')}
            />
            <Checkbox
              label={t('integrations.right_organization_manager')}
              description={
                user.organizationManager ? t('integrations.right_organization_manager_description') : t('integrations.right_not_held')
              }
              disabled={!user.organizationManager}
              {...register('organization_manager')}
            />
            {rightsError && (
              <Text size="xs" c="red.8" id={`${rightsId}-error`}>
                {t(rightsError)}
              </Text>
            )}
          </Stack>
          <ProblemSummary lines={problems} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('integrations.cancel')}
            </Button>
            <Button type="submit" loading={create.isPending}>
              {t('integrations.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </ModalFrame>
  );
}
