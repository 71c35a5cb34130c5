import { use } from 'react';
import { Group, Paper, Stack, Switch, Text, Title } from '@mantine/core';
import { IconLifebuoy } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { Organization, UserInfo } from '@partner-portal/contracts';
import { notifyError } from '@/components/notify';
import { useSetSupportAccess, useSupportAccess } from '../../api/support';
import { supportLocales } from '../../lib/locales';

/**
 * The organization's support access on the manage page (docs/security.md, "Support sessions"): its
 * own setting as a switch for organizationManagers, and whether support may act as its members,
 * inherited down the tree (a child may only narrow it; allowing it below a refusal is overridden).
 */
export function SupportAccessCard({ organization, user }: { organization: Organization; user: UserInfo }) {
  const visible = user.userManager || user.organizationManager;
  const access = useSupportAccess(organization.id, visible);
  if (!visible || !access.data) return null;
  return <SupportAccessBody organization={organization} user={user} data={access.data} />;
}

function SupportAccessBody({
  organization,
  user,
  data,
}: {
  organization: Organization;
  user: UserInfo;
  data: { allowed: boolean; effective: boolean; set_by: string | null; set_by_name?: string | null | undefined };
}) {
  use(supportLocales());
  const { t } = useTranslation();
  const set = useSetSupportAccess(organization.id);
  const headingId = `support-access-${organization.id}`;
  const inherited = data.set_by !== null && data.set_by !== organization.id;
  const state = data.effective
    ? inherited
      ? t('support.access_effective_inherited', { name: data.set_by_name ?? '' })
      : t('support.access_effective')
    : data.allowed
      ? t('support.access_overridden', { name: data.set_by_name ?? '' })
      : inherited
        ? t('support.access_refused_inherited', { name: data.set_by_name ?? '' })
        : t('support.access_refused');
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby={headingId} data-testid="support-access">
      <Stack gap={6}>
        <Group gap="xs" wrap="wrap">
          <IconLifebuoy size={20} aria-hidden />
          <Title order={2} size="h4" id={headingId}>
            {t('support.access_title')}
          </Title>
        </Group>
        <Text size="sm">{state}</Text>
        {user.organizationManager ? (
          <Switch
            label={t('support.access_switch')}
            checked={data.allowed}
            disabled={set.isPending}
            onChange={(e) => set.mutate(e.currentTarget.checked, { onError: (error) => notifyError(error) })}
          />
        ) : null}
      </Stack>
    </Paper>
  );
}
