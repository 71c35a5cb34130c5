import { lazy, Suspense, useRef, useState } from 'react';
import { Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconShieldLock } from '@tabler/icons-react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { Organization, SecondFactorPolicy, UserInfo } from '@partner-portal/contracts';
import { isProviderWide, useSecondFactorPolicy } from '../api/second-factor-policy';

// the confirmation loads when asked for
const ConfirmPolicy = lazy(() => import('./second-factor-confirm').then((m) => ({ default: m.ConfirmPolicy })));

/**
 * The organization's second-factor policy on the manage page (docs/second-factors.md): whether a
 * second factor is required here, and where that comes from (this organization, an ancestor, or
 * the provider everywhere). organizationManagers may require it; a requirement is lifted only
 * where it was set (the server refuses the rest, and its refusal is shown).
 */
export function SecondFactorPolicyCard({ organization, user }: { organization: Organization; user: UserInfo }) {
  const { t } = useTranslation();
  const visible = user.userManager || user.organizationManager;
  const policy = useSecondFactorPolicy(organization.id, visible);
  const [confirming, setConfirming] = useState<boolean | null>(null);
  // after a change the button that opened the dialog is gone: focus goes to the card's heading
  const heading = useRef<HTMLHeadingElement>(null);
  if (!visible || !policy.data) return null;
  const data = policy.data;
  const headingId = `second-factor-policy-${organization.id}`;
  // a requirement set above can only be lifted there: the button shows only where it may work
  const canRequire = user.organizationManager && !data.required;
  const canLift = user.organizationManager && data.set_here && !data.inherited_from;

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby={headingId} data-testid="second-factor-policy">
      <Group justify="space-between" align="flex-start" gap="sm" wrap="wrap">
        <Stack gap={6} style={{ flex: '1 1 18rem', minWidth: 0 }}>
          <Group gap="xs" wrap="wrap">
            <IconShieldLock size={20} aria-hidden />
            <Title order={2} size="h4" id={headingId} ref={heading} tabIndex={-1}>
              {t('sfp_title')}
            </Title>
            {/* the whole word in every language (docs/design.md): the badge wraps below rather than shrinks */}
            <Badge
              color={data.required ? 'teal.9' : 'gray'}
              variant={data.required ? 'filled' : 'light'}
              styles={{
                root: { flex: 'none', maxWidth: 'none', overflow: 'visible' },
                label: { overflow: 'visible', textOverflow: 'clip' },
              }}
            >
              {data.required ? t('sfp_badge_required') : t('sfp_badge_not_required')}
            </Badge>
          </Group>
          <Text size="sm">{describe(data, organization, t)}</Text>
          {data.required && data.inherited_from ? (
            <Text size="sm" c="dimmed">
              {isProviderWide(data.inherited_from)
                ? t('sfp_only_provider_lifts')
                : t('sfp_only_source_lifts', { name: data.inherited_from.organization_name })}
              {data.set_here ? ` ${t('sfp_also_set_here')}` : ''}
            </Text>
          ) : null}
        </Stack>
        {canRequire ? <Button onClick={() => setConfirming(true)}>{t('sfp_require')}</Button> : null}
        {canLift ? (
          <Button variant="default" onClick={() => setConfirming(false)}>
            {t('sfp_lift')}
          </Button>
        ) : null}
      </Group>
      {confirming !== null ? (
        <Suspense fallback={null}>
          <ConfirmPolicy
            organization={organization}
            required={confirming}
            onClose={() => setConfirming(null)}
            onDone={() => {
              setConfirming(null);
              window.setTimeout(() => heading.current?.focus(), 0);
            }}
          />
        </Suspense>
      ) : null}
    </Paper>
  );
}

function describe(data: SecondFactorPolicy, organization: Organization, t: TFunction): string {
  if (!data.required) return t('sfp_not_required');
  const source = data.inherited_from;
  if (isProviderWide(source) || (!source && organization.parent_id === null)) return t('sfp_required_provider');
  if (source) return t('sfp_required_inherited', { name: source.organization_name });
  return t('sfp_required_here', { name: organization.name });
}
