import { use, useState, type FormEvent } from 'react';
import { Badge, Button, Checkbox, Group, Modal, NumberInput, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconLink, IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import {
  ORGANIZATION_MANAGER_CAPABILITIES,
  SETUP_CAPABILITIES,
  SETUP_LINK_MAX_DAYS,
  type Organization,
  type SetupCapability,
  type SetupLink,
  type SetupLinkCreated,
  type UserInfo,
} from '@partner-portal/contracts';
import { errorText, notifyError, notifySuccess } from '@/components/notify';
import { useFormatDate } from '@/lib/dates';
import { useConnectionPolicy, useCreateSetupLink, useRevokeSetupLink, useSetupLinks } from '../api/setup-links';
import { setupLinksLocales } from '../lib/locales';
import { CopyField } from '@/components/copy-field';
import { notAllowedReason } from './connection-policy-card';

/** The capabilities the manager may hand on: as they hold them (the server checks the same). */
export function capabilitiesHeld(user: UserInfo): SetupCapability[] {
  return SETUP_CAPABILITIES.filter((c) => (ORGANIZATION_MANAGER_CAPABILITIES.includes(c) ? user.organizationManager : user.userManager));
}

const STATE_COLOURS: Record<SetupLink['state'], string> = { pending: 'blue', opened: 'green', expired: 'gray', revoked: 'red' };

/**
 * "Setup links" in the integrations area (the operating contract, "Setup links for a dealer's IT
 * person"): the selected organization's links with their state and a Revoke button, and a dialog
 * that makes one — the IT person's address, what the link may set up (only what the manager
 * holds), how long it works — and shows its url once. Disabled, with the reason, where the
 * connection policy of a higher organization forbids connecting.
 */
export function SetupLinksPanel({ organization, user }: { organization: Organization; user: UserInfo }) {
  use(setupLinksLocales());
  const { t } = useTranslation();
  const formatDate = useFormatDate();
  const links = useSetupLinks(organization.id);
  const policy = useConnectionPolicy(organization.id);
  const revoke = useRevokeSetupLink(organization.id);
  const [creating, setCreating] = useState(false);
  const held = capabilitiesHeld(user);
  const reason = notAllowedReason(policy.data, t);
  if (held.length === 0) return null;

  return (
    <Stack component="section" gap="sm" data-testid="setup-links" aria-labelledby="setup-links-title">
      <Title order={3} size="h4" id="setup-links-title">
        {t('setup_links.title')}
      </Title>
      <Text size="sm">{t('setup_links.intro')}</Text>
      <Group>
        <Button leftSection={<IconPlus size={16} aria-hidden />} disabled={reason !== null} onClick={() => setCreating(true)}>
          {t('setup_links.add')}
        </Button>
      </Group>
      {reason ? (
        <Text size="sm" c="orange.9">
          {reason}
        </Text>
      ) : null}
      {links.data && links.data.length === 0 ? (
        <Text size="sm" c="gray.7">
          {t('setup_links.none')}
        </Text>
      ) : null}
      {links.data && links.data.length > 0 ? (
        <Stack component="ul" gap="xs" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label={t('setup_links.title')}>
          {links.data.map((link) => (
            <Paper component="li" key={link.id} withBorder p="sm" radius="md" data-testid="setup-link" data-email={link.email}>
              <Group justify="space-between" align="flex-start" gap="xs" wrap="wrap">
                <Stack gap={4} style={{ minWidth: 0, flex: '1 1 16rem' }}>
                  <Group gap="xs" wrap="wrap">
                    <IconLink size={18} aria-hidden />
                    <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                      {link.email}
                    </Text>
                    <Badge color={STATE_COLOURS[link.state]} variant="light">
                      {t(`setup_links.state_${link.state}`)}
                    </Badge>
                  </Group>
                  <Text size="xs" c="gray.7">
                    {link.capabilities.map((c) => t(`setup_links.capability_${c}`)).join(', ')} ·{' '}
                    {t('setup_links.expires', { date: formatDate(link.expires_at, { time: true }) })}
                  </Text>
                </Stack>
                {link.state === 'pending' || link.state === 'opened' ? (
                  <Button
                    variant="default"
                    size="compact-sm"
                    c="red.9"
                    leftSection={<IconTrash size={14} aria-hidden />}
                    aria-label={t('setup_links.revoke_label', { email: link.email })}
                    loading={revoke.isPending && revoke.variables === link.id}
                    onClick={() =>
                      revoke.mutate(link.id, {
                        onSuccess: () => notifySuccess(t('setup_links.revoked')),
                        onError: (error) => notifyError(error),
                      })
                    }
                  >
                    {t('setup_links.revoke')}
                  </Button>
                ) : null}
              </Group>
            </Paper>
          ))}
        </Stack>
      ) : null}
      <Modal opened={creating} onClose={() => setCreating(false)} title={t('setup_links.add_title')} size="lg">
        {creating ? <CreateSetupLink organizationId={organization.id} held={held} onDone={() => setCreating(false)} /> : null}
      </Modal>
    </Stack>
  );
}

function CreateSetupLink({ organizationId, held, onDone }: { organizationId: string; held: SetupCapability[]; onDone: () => void }) {
  const { t } = useTranslation();
  const create = useCreateSetupLink(organizationId);
  const [email, setEmail] = useState('');
  const [capabilities, setCapabilities] = useState<string[]>(held.filter((c) => c !== 'audit_streams'));
  const [days, setDays] = useState<number>(7);
  const [created, setCreated] = useState<SetupLinkCreated | null>(null);

  if (created) {
    return (
      <Stack gap="sm">
        <Text size="sm">{t('setup_links.created', { email })}</Text>
        <CopyField label={t('setup_links.url')} value={created.url} testId="setup-link-url" />
        <Group justify="flex-end">
          <Button onClick={onDone}>{t('setup_links.done')}</Button>
        </Group>
      </Stack>
    );
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      { email, capabilities: capabilities as SetupCapability[], expires_in_days: days },
      { onSuccess: (answer) => setCreated(answer) },
    );
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput
          label={t('setup_links.email')}
          description={t('setup_links.email_description')}
          type="email"
          required
          value={email}
          onChange={(event) => setEmail(event.currentTarget.value)}
        />
        <Checkbox.Group label={t('setup_links.capabilities')} value={capabilities} onChange={setCapabilities} required>
          <Stack gap={6} mt={6}>
            {held.map((c) => (
              <Checkbox key={c} value={c} label={t(`setup_links.capability_${c}`)} />
            ))}
          </Stack>
        </Checkbox.Group>
        <NumberInput
          label={t('setup_links.days')}
          min={1}
          max={SETUP_LINK_MAX_DAYS}
          value={days}
          onChange={(value) => setDays(typeof value === 'number' ? value : Number(value) || 1)}
          required
        />
        {create.isError ? (
          <Text size="sm" c="red.9" role="alert">
            {errorText(create.error)}
          </Text>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            {t('setup_links.cancel')}
          </Button>
          <Button type="submit" loading={create.isPending} disabled={capabilities.length === 0}>
            {t('setup_links.send')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
