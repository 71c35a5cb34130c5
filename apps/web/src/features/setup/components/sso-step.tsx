import { useState, type ChangeEvent, type FormEvent } from 'react';
import { Alert, Badge, Button, Checkbox, Group, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { errorText } from '@/components/notify';
import { useCreateConnection, useSetupConnections, useSetupDomains, useSwitchOnConnection } from '../api/setup';
import { CopyField } from '@/components/copy-field';

/** The redirect URI to register at the dealer's provider (the operating contract, "Single sign-on per organization"). */
export const redirectUri = (origin: string) => `${origin}/api/identity/login-external-callback`;

/** Single sign-on: the redirect URI to copy, a connection created switched off, then switched on. */
/** Where a connection's test sign-in starts; the provider sends the browser back to `returnPath` with ?sso_test=…. */
export const testSignInUrl = (connectionId: string, returnPath: string) =>
  `/api/identity/challenge-external-login?${new URLSearchParams({ connection: connectionId, test: '1', returnPath }).toString()}`;

export function SsoStep({ organizationId, returnPath }: { organizationId: string; returnPath: string }) {
  const { t } = useTranslation();
  const domains = useSetupDomains(organizationId);
  const connections = useSetupConnections(organizationId);
  const create = useCreateConnection(organizationId);
  const switchOn = useSwitchOnConnection(organizationId);
  const [form, setForm] = useState({ name: '', issuer: '', client_id: '', client_secret: '' });
  const [chosen, setChosen] = useState<string[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const verified = (domains.data ?? []).filter((d) => d.verified).map((d) => d.domain);
  const own = (connections.data ?? []).filter((c) => c.organization_id === organizationId);
  const field = (name: keyof typeof form) => ({
    value: form[name],
    onChange: (event: ChangeEvent<HTMLInputElement>) => setForm({ ...form, [name]: event.currentTarget.value }),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    create.mutate(
      {
        name: form.name,
        issuer: form.issuer.trim(),
        client_id: form.client_id.trim(),
        ...(form.client_secret ? { client_secret: form.client_secret } : {}),
        domains: chosen,
        just_in_time: false,
        active: false,
      },
      {
        onSuccess: () => setForm({ name: '', issuer: '', client_id: '', client_secret: '' }),
        onError: (error) => setFailure(errorText(error)),
      },
    );
  };

  return (
    <Stack gap="sm" data-testid="setup-sso">
      <Title order={2} size="h4">
        {t('setup.sso_title')}
      </Title>
      <Text size="sm">{t('setup.sso_intro')}</Text>
      <CopyField label={t('setup.redirect_uri')} value={redirectUri(window.location.origin)} testId="setup-redirect-uri" />
      <form onSubmit={submit} noValidate>
        <Stack gap="xs">
          <TextInput label={t('setup.sso_name')} required {...field('name')} />
          <TextInput label={t('setup.sso_issuer')} description={t('setup.sso_issuer_description')} required {...field('issuer')} />
          <TextInput label={t('setup.sso_client_id')} required {...field('client_id')} />
          <PasswordInput
            label={t('setup.sso_client_secret')}
            description={t('setup.sso_client_secret_description')}
            {...field('client_secret')}
          />
          {verified.length > 0 ? (
            <Checkbox.Group label={t('setup.sso_domains')} value={chosen} onChange={setChosen} required>
              <Stack gap={6} mt={6}>
                {verified.map((d) => (
                  <Checkbox key={d} value={d} label={d} />
                ))}
              </Stack>
            </Checkbox.Group>
          ) : (
            <Text size="sm" c="orange.9">
              {t('setup.sso_no_domains')}
            </Text>
          )}
          <Group>
            <Button type="submit" loading={create.isPending} disabled={chosen.length === 0}>
              {t('setup.sso_create')}
            </Button>
          </Group>
        </Stack>
      </form>
      {own.map((c) => (
        <Paper key={c.id} withBorder p="xs" radius="md" data-testid="setup-connection" data-name={c.name}>
          <Group justify="space-between" gap="xs" wrap="wrap">
            <Stack gap={2} style={{ minWidth: 0 }}>
              <Group gap="xs">
                <Text fw={600}>{c.name}</Text>
                <Badge color={c.active ? 'green' : 'gray'} variant="light">
                  {c.active ? t('setup.sso_on') : t('setup.sso_off')}
                </Badge>
              </Group>
              <Text size="xs" c="gray.7" style={{ overflowWrap: 'anywhere' }}>
                {c.issuer} · {c.domains.join(', ')}
              </Text>
            </Stack>
            <Group gap="xs">
              <Button component="a" variant="default" size="compact-sm" href={testSignInUrl(c.id, returnPath)}>
                {t('setup.sso_test')}
              </Button>
              {!c.active ? (
                <Button
                  size="compact-sm"
                  loading={switchOn.isPending && switchOn.variables === c.id}
                  onClick={() => switchOn.mutate(c.id, { onError: (error) => setFailure(errorText(error)) })}
                >
                  {t('setup.sso_switch_on')}
                </Button>
              ) : null}
            </Group>
          </Group>
        </Paper>
      ))}
      {failure ? (
        <Alert color="red" role="alert">
          {failure}
        </Alert>
      ) : null}
    </Stack>
  );
}
