import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { ResourceList } from '@/components/resource-list';
import { IconPlus, IconTrash, IconWorldCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { OrganizationDomain } from '@partner-portal/contracts';
import { errorText, notifySuccess } from '@/components/notify';
import { useFocusBackAfter } from '@/components/return-focus';
import { useFormatDate } from '@/lib/dates';
import { useDomains, useVerifyDomain } from '../api/domains';
import { originOf, sortDomains } from '../lib/identity';
import { CopyField } from '@/components/copy-field';
import type { PanelProps } from './shared';
import { WholeBadge } from '@/components/whole-badge';

/**
 * The organization's domains (the operating contract, "Verified domains"): its own, with the TXT
 * record to publish and "Verify now" while unverified, and its ancestors', read-only, named by the
 * organization that claimed them. A verified domain serves the whole subtree below it.
 */
export function DomainsPanel({ organization, organizationName, open }: PanelProps) {
  const { t } = useTranslation();
  const domains = useDomains(organization.id, true);
  const list = sortDomains(domains.data ?? [], organization.id);

  return (
    <Stack gap="sm">
      <Text size="sm">{t('identity.domains_intro')}</Text>
      <Group>
        <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => open({ type: 'add-domain' })}>
          {t('identity.domain_add')}
        </Button>
      </Group>
      <ResourceList
        query={domains}
        items={list}
        itemKey={(domain) => `${domain.organization_id}/${domain.domain}`}
        item={(domain) => (
          <DomainItem
            domain={domain}
            own={originOf(domain, organization.id) === 'own'}
            organizationId={organization.id}
            ownerName={organizationName(domain.organization_id)}
            onDelete={() => open({ type: 'delete-domain', domain: domain.domain })}
          />
        )}
        label={t('identity.tab_domains')}
        loading={t('identity.loading')}
        empty={t('identity.domains_none')}
      />
    </Stack>
  );
}

function DomainItem({
  domain,
  own,
  organizationId,
  ownerName,
  onDelete,
}: {
  domain: OrganizationDomain;
  own: boolean;
  organizationId: string;
  ownerName: string | null;
  onDelete: () => void;
}) {
  const { t } = useTranslation();
  const formatDate = useFormatDate();
  const verify = useVerifyDomain(organizationId);
  const [failure, setFailure] = useState<string | null>(null);
  const name = domain.domain;
  // "Verify now" keeps the focus while it stays (a refusal); once verified, the button goes and its domain's name takes the focus
  const verifyButton = useFocusBackAfter<HTMLButtonElement>(verify.isPending);
  const nameRef = useRef<HTMLParagraphElement>(null);
  const verifiedHere = useRef(false);
  useEffect(() => {
    if (!domain.verified || !verifiedHere.current) return;
    verifiedHere.current = false;
    const lost = !document.activeElement || document.activeElement === document.body || document.activeElement === verifyButton.current;
    if (lost) nameRef.current?.focus();
  }, [domain.verified, verifyButton]);
  const onVerify = () => {
    setFailure(null);
    verifiedHere.current = true;
    verify.mutate(name, {
      onSuccess: () => notifySuccess(t('identity.verified_done', { domain: name })),
      onError: (error) => {
        verifiedHere.current = false;
        setFailure(errorText(error));
      },
    });
  };

  return (
    <Paper component="li" withBorder p="sm" radius="md" data-testid="domain" data-domain={name} data-verified={domain.verified}>
      <Group justify="space-between" align="flex-start" gap="xs" wrap="wrap">
        <Stack gap={4} style={{ minWidth: 0, flex: '1 1 14rem' }}>
          <Group gap="xs" wrap="wrap">
            <IconWorldCheck size={18} aria-hidden />
            <Text fw={600} style={{ overflowWrap: 'anywhere' }} ref={nameRef} tabIndex={-1} data-testid="domain-name">
              {name}
            </Text>
            {domain.verified ? (
              <WholeBadge color="green">{t('identity.badge_verified')}</WholeBadge>
            ) : (
              <WholeBadge color="yellow" textColor="dark.8">
                {t('identity.badge_unverified')}
              </WholeBadge>
            )}
          </Group>
          {own ? null : (
            <Text size="xs" c="gray.7">
              {ownerName
                ? t(domain.verified ? 'identity.verified_by' : 'identity.claimed_by', { name: ownerName })
                : t(domain.verified ? 'identity.verified_by_above' : 'identity.claimed_by_above')}
            </Text>
          )}
          {own && domain.verified && domain.verified_at ? (
            <Text size="xs" c="gray.7">
              {t('identity.verified_checked', { date: formatDate(domain.verified_at) })}
            </Text>
          ) : null}
        </Stack>
        {own ? (
          <Button
            variant="default"
            size="compact-sm"
            c="red.9"
            leftSection={<IconTrash size={14} aria-hidden />}
            aria-label={t('identity.domain_delete_label', { domain: name })}
            onClick={onDelete}
          >
            {t('identity.delete')}
          </Button>
        ) : null}
      </Group>
      {own && !domain.verified && domain.verification ? (
        <Stack gap="xs" mt="sm">
          <Text size="sm">{t('identity.record_intro', { domain: name })}</Text>
          <CopyField label={t('identity.record_name')} value={domain.verification.name} testId="txt-name" />
          <CopyField
            label={`${t('identity.record_value')} (${domain.verification.type})`}
            value={domain.verification.value}
            testId="txt-value"
          />
          {failure ? (
            <Alert color="red" variant="light" role="alert">
              {failure}
            </Alert>
          ) : null}
          <Group>
            <Button
              ref={verifyButton}
              size="compact-md"
              onClick={onVerify}
              loading={verify.isPending}
              aria-label={t('identity.verify_label', { domain: name })}
            >
              {t('identity.verify_now')}
            </Button>
          </Group>
        </Stack>
      ) : null}
    </Paper>
  );
}
