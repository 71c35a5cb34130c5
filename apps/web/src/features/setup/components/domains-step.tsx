import { useState, type FormEvent } from 'react';
import { Alert, Badge, Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { DomainClaimResponse } from '@partner-portal/contracts';
import { errorText } from '@/components/notify';
import { useClaimDomain, useSetupDomains, useVerifyDomain } from '../api/setup';
import { CopyField } from '@/components/copy-field';

/** Verified domains: add one, publish its TXT record (copy buttons), verify it. */
export function DomainsStep({ organizationId }: { organizationId: string }) {
  const { t } = useTranslation();
  const domains = useSetupDomains(organizationId);
  const claim = useClaimDomain(organizationId);
  const verify = useVerifyDomain(organizationId);
  const [domain, setDomain] = useState('');
  const [record, setRecord] = useState<DomainClaimResponse | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const add = (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    claim.mutate(domain.trim(), { onSuccess: (answer) => setRecord(answer), onError: (error) => setFailure(errorText(error)) });
  };
  const check = (name: string) => {
    setFailure(null);
    verify.mutate(name, { onError: (error) => setFailure(errorText(error)) });
  };
  const own = (domains.data ?? []).filter((d) => d.organization_id === organizationId);

  return (
    <Stack gap="sm" data-testid="setup-domains">
      <Title order={2} size="h4">
        {t('setup.domains_title')}
      </Title>
      <Text size="sm">{t('setup.domains_intro')}</Text>
      <form onSubmit={add} noValidate>
        <Group align="flex-end" gap="xs" wrap="wrap">
          <TextInput
            label={t('setup.domain')}
            placeholder="dealer.example"
            value={domain}
            onChange={(event) => setDomain(event.currentTarget.value)}
            style={{ flex: '1 1 14rem' }}
          />
          <Button type="submit" loading={claim.isPending}>
            {t('setup.domain_add')}
          </Button>
        </Group>
      </form>
      {record ? (
        <Paper withBorder p="sm" radius="md">
          <Stack gap="xs">
            <Text size="sm">{t('setup.domain_record', { domain: record.domain })}</Text>
            <CopyField label={t('setup.record_type')} value={record.verification.type} />
            <CopyField label={t('setup.record_name')} value={record.verification.name} testId="setup-txt-name" />
            <CopyField label={t('setup.record_value')} value={record.verification.value} testId="setup-txt-value" />
          </Stack>
        </Paper>
      ) : null}
      {own.length > 0 ? (
        <Stack component="ul" gap="xs" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label={t('setup.domains_title')}>
          {own.map((d) => (
            <Paper component="li" key={d.domain} withBorder p="xs" radius="md" data-testid="setup-domain" data-domain={d.domain}>
              <Group justify="space-between" gap="xs" wrap="wrap">
                <Group gap="xs">
                  <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                    {d.domain}
                  </Text>
                  <Badge color={d.verified ? 'green' : 'gray'} variant="light">
                    {d.verified ? t('setup.verified') : t('setup.not_verified')}
                  </Badge>
                </Group>
                {!d.verified ? (
                  <Button size="compact-sm" loading={verify.isPending && verify.variables === d.domain} onClick={() => check(d.domain)}>
                    {t('setup.domain_verify')}
                  </Button>
                ) : null}
              </Group>
            </Paper>
          ))}
        </Stack>
      ) : null}
      {failure ? (
        <Alert color="red" role="alert">
          {failure}
        </Alert>
      ) : null}
    </Stack>
  );
}
