import { useState, type FormEvent } from 'react';
import { Alert, Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ScimTokenCreated } from '@partner-portal/contracts';
import { errorText } from '@/components/notify';
import { useCreateScimToken } from '../api/setup';
import { CopyField } from '@/components/copy-field';

/** SCIM: the base URL and a token for the directory, shown once. */
export function ScimStep({ organizationId }: { organizationId: string }) {
  const { t } = useTranslation();
  const create = useCreateScimToken(organizationId);
  const [name, setName] = useState('');
  const [made, setMade] = useState<ScimTokenCreated | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(name, { onSuccess: (answer) => setMade(answer) });
  };
  return (
    <Stack gap="sm" data-testid="setup-scim">
      <Title order={2} size="h4">
        {t('setup.scim_title')}
      </Title>
      <Text size="sm">{t('setup.scim_intro')}</Text>
      <CopyField label={t('setup.scim_base_url')} value={`${window.location.origin}/scim/v2`} testId="setup-scim-base-url" />
      <form onSubmit={submit} noValidate>
        <Group align="flex-end" gap="xs" wrap="wrap">
          <TextInput
            label={t('setup.scim_token_name')}
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            style={{ flex: '1 1 14rem' }}
          />
          <Button type="submit" loading={create.isPending}>
            {t('setup.scim_create')}
          </Button>
        </Group>
      </form>
      {made ? (
        <Alert color="yellow" title={t('setup.scim_once')} styles={{ title: { color: 'var(--mantine-color-dark-9)' } }}>
          <CopyField label={t('setup.scim_token')} value={made.token} testId="setup-scim-token" />
        </Alert>
      ) : null}
      {create.isError ? (
        <Alert color="red" role="alert">
          {errorText(create.error)}
        </Alert>
      ) : null}
    </Stack>
  );
}
