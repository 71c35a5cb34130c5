import { use } from 'react';
import { Alert, Paper, Stack, Switch, Text } from '@mantine/core';
import { IconPlugConnectedX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { ConnectionPolicy, Organization, UserInfo } from '@partner-portal/contracts';
import { notifyError } from '@/components/notify';
import { useConnectionPolicy, useSetConnectionPolicy } from '../api/setup-links';
import { setupLinksLocales } from '../lib/locales';

/** Why the organization may not connect (null when it may): "Not allowed here: set by <organization>". */
export function notAllowedReason(policy: ConnectionPolicy | undefined, t: (key: string, options?: Record<string, string>) => string) {
  if (!policy || policy.may_connect) return null;
  return t('setup_links.not_allowed', { organization: policy.set_by_name ?? '' });
}

/**
 * The connection policy of the selected organization (the operating contract, "Setup links for a
 * dealer's IT person"): whether it may connect its own identity providers and directories, whether
 * the organizations below it may, and where that is set; a switch for its organizationManagers.
 */
export function ConnectionPolicyCard({ organization, user }: { organization: Organization; user: UserInfo }) {
  use(setupLinksLocales());
  const { t } = useTranslation();
  const policy = useConnectionPolicy(organization.id);
  const change = useSetConnectionPolicy(organization.id);
  if (!policy.data) return null;
  const { data } = policy;
  const reason = notAllowedReason(data, t);
  const inherited = data.set_by !== null && data.set_by !== organization.id;
  return (
    <Paper withBorder p="sm" radius="md" data-testid="connection-policy">
      <Stack gap="xs">
        {reason ? (
          <Alert color="orange" icon={<IconPlugConnectedX size={18} aria-hidden />} p="xs">
            {reason}
          </Alert>
        ) : null}
        <Switch
          label={t('setup_links.policy_label')}
          description={
            inherited && data.may_connect
              ? t('setup_links.policy_set_by', { organization: data.set_by_name ?? '' })
              : t('setup_links.policy_description')
          }
          checked={data.sub_organizations_may_connect}
          disabled={!user.organizationManager || change.isPending || !data.may_connect}
          onChange={(event) =>
            change.mutate({ sub_organizations_may_connect: event.currentTarget.checked }, { onError: (error) => notifyError(error) })
          }
        />
        {!user.organizationManager ? (
          <Text size="xs" c="gray.7">
            {t('setup_links.policy_managers_only')}
          </Text>
        ) : null}
      </Stack>
    </Paper>
  );
}
