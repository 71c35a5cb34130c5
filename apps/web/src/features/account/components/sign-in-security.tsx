import { useState, type CSSProperties, type FormEvent } from 'react';
import { ActionIcon, Alert, Badge, Button, Group, Modal, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconInfoCircle, IconPencil, IconTrash } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TotpEnrolmentResponse, UserInfo } from '@partner-portal/contracts';
import { notifyError, notifySuccess } from '@/components/notify';
import { RecoveryCodeList, TotpEnrolment } from '@/components/totp-enrolment';
import { ApiError } from '@/lib/api';
import { formatDate } from '@/lib/dates';
import { createPasskeyCredential, isPasskeyCancelled, passkeysSupported, startTotp } from '@/lib/factors';
import { OneTimeCodeInput } from '@/components/one-time-code-input';
import {
  confirmIdentity,
  factorsQuery,
  factorsQueryKey,
  regenerateRecoveryCodes,
  registerPasskey,
  removePasskey,
  removeTotp,
  renamePasskey,
} from '../api/factors';

/**
 * "Sign-in and security" of the profile (docs/second-factors.md): the authenticator app, the
 * recovery codes and the passkeys. Changes that need a password or code checked in the last five
 * minutes ask for it first, then go on.
 */
export function SignInSecurity({ user }: { user: UserInfo }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const factors = useQuery({ ...factorsQuery, enabled: !user.externalIdentityProvider });
  const [enrolling, setEnrolling] = useState<TotpEnrolmentResponse | null>(null);
  const [newCodes, setNewCodes] = useState<string[] | null>(null);
  const [passkeyName, setPasskeyName] = useState('');
  const [busy, setBusy] = useState(false);
  const [pending, setPending] = useState<(() => Promise<void>) | null>(null);
  const [renaming, setRenaming] = useState<{ id: string; name: string; error: string | null } | null>(null);

  if (user.externalIdentityProvider) return null;
  const refresh = () => queryClient.invalidateQueries({ queryKey: factorsQueryKey });

  /** Run a change; when it needs a fresh password or code, ask for it and run it again after. */
  const guarded = async (action: () => Promise<void>) => {
    setBusy(true);
    try {
      await action();
    } catch (err) {
      if (err instanceof ApiError && err.key === 'recent_authentication_required') setPending(() => action);
      else if (!isPasskeyCancelled(err)) notifyError(err);
    } finally {
      setBusy(false);
    }
  };

  const addPasskey = () =>
    guarded(async () => {
      const response = await createPasskeyCredential();
      const result = await registerPasskey(passkeyName.trim() || t('passkey_default_name'), response);
      if (result.recovery_codes) setNewCodes(result.recovery_codes);
      setPasskeyName('');
      notifySuccess(t('passkey_added'));
      await refresh();
    });

  /** Close the rename form; the focus goes back to that passkey's rename button. */
  const stopRenaming = (id: string) => {
    setRenaming(null);
    window.setTimeout(() => document.querySelector<HTMLButtonElement>(`[data-rename="${id}"]`)?.focus(), 0);
  };

  /** A new name for a passkey (no fresh password needed: a name changes nothing about signing in). */
  const rename = async () => {
    if (!renaming) return;
    const name = renaming.name.trim();
    if (!name) return setRenaming({ ...renaming, error: t('fill_all_required_fields') });
    setBusy(true);
    try {
      await renamePasskey(renaming.id, name);
      notifySuccess(t('passkey_renamed'));
      await refresh();
      stopRenaming(renaming.id);
    } catch (err) {
      if (err instanceof ApiError && err.status === 400) setRenaming({ ...renaming, error: t('passkey_name_too_long') });
      else notifyError(err);
    } finally {
      setBusy(false);
    }
  };

  const data = factors.data;
  return (
    <Paper
      withBorder
      shadow="sm"
      p={{ base: 'md', sm: 'xl' }}
      radius="lg"
      mt="lg"
      component="section"
      aria-labelledby="sign-in-security-title"
    >
      <Stack gap="md">
        <Title order={2} size="h3" id="sign-in-security-title">
          {t('security_title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('security_intro')}
        </Text>
        {data?.required && (
          <Alert color="blue" variant="light" icon={<IconInfoCircle aria-hidden />}>
            {t('security_required')}
          </Alert>
        )}

        {newCodes && (
          <Stack gap="sm">
            <Text fw={600}>{t('recovery_codes_title')}</Text>
            <Alert color="yellow" variant="light">
              {t('recovery_codes_show_once')}
            </Alert>
            <RecoveryCodeList codes={newCodes} />
            <Group justify="flex-end">
              <Button onClick={() => setNewCodes(null)}>{t('recovery_codes_done')}</Button>
            </Group>
          </Stack>
        )}

        <Stack gap="xs">
          <Title order={3} size="h4">
            {t('totp_title')}
          </Title>
          {enrolling ? (
            <TotpEnrolment
              initial={enrolling}
              onCancel={() => setEnrolling(null)}
              onDone={() => {
                setEnrolling(null);
                notifySuccess(t('totp_added'));
                void refresh();
              }}
            />
          ) : data?.totp.enabled ? (
            <Group justify="space-between" wrap="wrap">
              <Badge color="green" variant="light">
                {t('totp_enabled', { date: formatDate(data.totp.confirmed_at) })}
              </Badge>
              <Button
                variant="default"
                color="red"
                loading={busy}
                onClick={() =>
                  void guarded(async () => {
                    await removeTotp();
                    notifySuccess(t('totp_removed'));
                    await refresh();
                  })
                }
              >
                {t('totp_remove')}
              </Button>
            </Group>
          ) : (
            <Group justify="space-between" wrap="wrap">
              <Text size="sm">{t('totp_not_enabled')}</Text>
              <Button
                onClick={() =>
                  void guarded(async () => {
                    setEnrolling(await startTotp());
                  })
                }
              >
                {t('totp_set_up')}
              </Button>
            </Group>
          )}
        </Stack>

        {data && data.recovery_codes_remaining > 0 && (
          <Group justify="space-between" wrap="wrap">
            <Text size="sm">{t('recovery_codes_remaining', { number: data.recovery_codes_remaining })}</Text>
            <Button
              variant="default"
              loading={busy}
              h="auto"
              mih={36}
              maw="100%"
              styles={{ label: { whiteSpace: 'normal', textAlign: 'center', paddingBlock: 6 } }}
              onClick={() =>
                void guarded(async () => {
                  setNewCodes((await regenerateRecoveryCodes()).recovery_codes);
                  await refresh();
                })
              }
            >
              {t('recovery_codes_new')}
            </Button>
          </Group>
        )}

        <Stack gap="xs">
          <Title order={3} size="h4">
            {t('passkeys_title')}
          </Title>
          {data && data.passkeys.length === 0 && <Text size="sm">{t('passkeys_none')}</Text>}
          {data && data.passkeys.length > 0 && (
            <Stack gap={4} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
              {data.passkeys.map((p) =>
                renaming?.id === p.id ? (
                  <li key={p.id}>
                    <form
                      // error texts one step darker than Mantine's red, for WCAG AA contrast on white
                      style={{ '--mantine-color-error': 'var(--mantine-color-red-9)' } as CSSProperties}
                      onSubmit={(e: FormEvent) => {
                        e.preventDefault();
                        void rename();
                      }}
                      onKeyDown={(e) => {
                        if (e.key === 'Escape') stopRenaming(p.id);
                      }}
                    >
                      <Group align="flex-end" wrap="wrap" gap="xs">
                        <TextInput
                          label={t('passkey_new_name', { name: p.name })}
                          value={renaming.name}
                          onChange={(e) => setRenaming({ id: p.id, name: e.currentTarget.value, error: null })}
                          error={renaming.error}
                          maxLength={100}
                          data-autofocus
                          autoFocus
                          style={{ flex: 1, minWidth: 180 }}
                        />
                        <Group gap="xs">
                          <Button type="submit" loading={busy}>
                            {t('save')}
                          </Button>
                          <Button variant="default" onClick={() => stopRenaming(p.id)}>
                            {t('cancel')}
                          </Button>
                        </Group>
                      </Group>
                    </form>
                  </li>
                ) : (
                  <Group key={p.id} component="li" justify="space-between" wrap="nowrap">
                    <div style={{ minWidth: 0 }}>
                      <Text size="sm" fw={600} style={{ wordBreak: 'break-word' }}>
                        {p.name}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {p.last_used_at ? t('passkey_last_used', { date: formatDate(p.last_used_at) }) : t('passkey_never_used')}
                        {' · '}
                        {t('passkey_added_on', { date: formatDate(p.created_at) })}
                      </Text>
                    </div>
                    <Group gap={4} wrap="nowrap">
                      <ActionIcon
                        variant="subtle"
                        aria-label={t('passkey_rename', { name: p.name })}
                        data-rename={p.id}
                        onClick={() => setRenaming({ id: p.id, name: p.name, error: null })}
                      >
                        <IconPencil size={18} aria-hidden />
                      </ActionIcon>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={t('passkey_remove', { name: p.name })}
                        onClick={() =>
                          void guarded(async () => {
                            await removePasskey(p.id);
                            notifySuccess(t('passkey_removed'));
                            await refresh();
                          })
                        }
                      >
                        <IconTrash size={18} aria-hidden />
                      </ActionIcon>
                    </Group>
                  </Group>
                ),
              )}
            </Stack>
          )}
          {passkeysSupported() ? (
            <form
              onSubmit={(e: FormEvent) => {
                e.preventDefault();
                void addPasskey();
              }}
            >
              <Group align="flex-end" wrap="wrap">
                <TextInput
                  label={t('passkey_name')}
                  value={passkeyName}
                  onChange={(e) => setPasskeyName(e.currentTarget.value)}
                  maxLength={100}
                  style={{ flex: 1, minWidth: 180 }}
                />
                <Button type="submit" loading={busy}>
                  {t('passkey_add')}
                </Button>
              </Group>
            </form>
          ) : (
            <Text size="sm" c="dimmed">
              {t('passkey_unsupported')}
            </Text>
          )}
        </Stack>
      </Stack>
      <ConfirmIdentityModal
        opened={pending !== null}
        onClose={() => setPending(null)}
        onConfirmed={() => {
          const action = pending;
          setPending(null);
          if (action) void guarded(action);
        }}
      />
    </Paper>
  );
}

function ConfirmIdentityModal({ opened, onClose, onConfirmed }: { opened: boolean; onClose: () => void; onConfirmed: () => void }) {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!password && !code.trim()) return setError(t('fill_all_required_fields'));
    setBusy(true);
    setError(null);
    try {
      await confirmIdentity(code.trim() ? { code: code.trim() } : { password });
      setPassword('');
      setCode('');
      onConfirmed();
    } catch (err) {
      if (err instanceof ApiError && (err.key === 'current_password_incorrect' || err.key === 'second_factor_code_invalid'))
        setError(t(err.key));
      else notifyError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened={opened} onClose={onClose} title={t('confirm_identity_title')} closeButtonProps={{ 'aria-label': t('close') }}>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Stack gap="sm">
          <Text size="sm">{t('confirm_identity_text')}</Text>
          <PasswordInput
            label={t('password')}
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            maxLength={128}
            data-autofocus
          />
          <OneTimeCodeInput label={t('confirm_identity_code')} value={code} onChange={setCode} error={error} />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              {t('cancel')}
            </Button>
            <Button type="submit" loading={busy}>
              {t('totp_confirm')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
