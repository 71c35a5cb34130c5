import { useState } from 'react';
import { Button, Group, Stack, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { scimTokenCreateSchema, type ScimTokenCreated } from '@partner-portal/contracts';
import { errorLines } from '@/components/notify';
import { fieldErrorMessages } from '@/lib/errors';
import { scimBaseUrl, useCreateScimToken } from '../api/scim-tokens';
import { ModalFrame, ProblemSummary } from '@/components/modal-frame';
import { OnceShownModal } from './once-shown';

type Values = z.input<typeof scimTokenCreateSchema>;
type Checked = z.output<typeof scimTokenCreateSchema>;

/**
 * Make a SCIM token for a directory of the organization: its name; then the token, this once, with
 * the base URL to paste beside it (too_many_scim_tokens and other refusals show above the buttons).
 */
export function ScimTokenModal({ organizationId, onClose }: { organizationId: string; onClose: () => void }) {
  const { t } = useTranslation();
  const create = useCreateScimToken(organizationId);
  const [problems, setProblems] = useState<string[] | null>(null);
  const [created, setCreated] = useState<(ScimTokenCreated & { name: string }) | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<Values, unknown, Checked>({ resolver: zodResolver(scimTokenCreateSchema), defaultValues: { name: '' } });

  const submit = handleSubmit((values) => {
    setProblems(null);
    create.mutate(values, {
      onSuccess: (answer) => setCreated({ ...answer, name: values.name }),
      onError: (error) => {
        const field = fieldErrorMessages(error, (key, options) => t(key, options ?? {})).name;
        if (field) setError('name', { message: field });
        else setProblems(errorLines(error));
      },
    });
  });

  if (created)
    return (
      <OnceShownModal
        title={t('integrations.token_created_title', { name: created.name })}
        intro={t('integrations.token_created_intro')}
        values={[
          { label: t('integrations.scim_base_url'), value: scimBaseUrl(window.location.origin), testId: 'scim-base-url' },
          { label: t('integrations.token'), value: created.token, testId: 'scim-token', secret: true },
        ]}
        onClose={onClose}
      />
    );

  const message = errors.name?.message;
  return (
    <ModalFrame title={t('integrations.token_add_title')} onClose={onClose}>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Stack>
          <TextInput
            label={t('integrations.name')}
            description={t('integrations.token_name_description')}
            required
            autoComplete="off"
            maxLength={100}
            data-autofocus
            {...register('name')}
            error={message ? t(message) : undefined}
          />
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
