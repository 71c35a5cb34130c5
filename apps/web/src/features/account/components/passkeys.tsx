import { useState, type FormEvent } from 'react';
import { ActionIcon, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { Passkey } from '@partner-portal/contracts';
import { notifySuccess } from '@/components/notify';
import { useFormatDate } from '@/lib/dates';
import { passkeysSupported } from '@/lib/factors';
import { useAddPasskey, useRemovePasskey } from '../api/passkeys';
import { AccountSubsection } from './account-subsection';
import type { Guarded } from './confirm-identity';
import { RenamePasskeyForm } from './rename-passkey-form';

/** The user's passkeys: when each was added and last used; rename, remove, add one (where the browser can). */
export function Passkeys({
  passkeys,
  guarded,
  onNewCodes,
}: {
  passkeys: Passkey[] | undefined;
  guarded: Guarded;
  onNewCodes: (codes: string[]) => void;
}) {
  const { t } = useTranslation();
  const [renaming, setRenaming] = useState<string | null>(null);

  /** Close the rename form; the focus goes back to that passkey's rename button. */
  const stopRenaming = (id: string) => {
    setRenaming(null);
    window.setTimeout(() => document.querySelector<HTMLButtonElement>(`[data-rename="${id}"]`)?.focus(), 0);
  };

  return (
    <AccountSubsection title={t('passkeys_title')}>
      {passkeys && passkeys.length === 0 && <Text size="sm">{t('passkeys_none')}</Text>}
      {passkeys && passkeys.length > 0 && (
        <Stack gap={4} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {passkeys.map((p) =>
            renaming === p.id ? (
              <li key={p.id}>
                <RenamePasskeyForm passkey={p} onClose={() => stopRenaming(p.id)} />
              </li>
            ) : (
              <PasskeyItem key={p.id} passkey={p} guarded={guarded} onRename={() => setRenaming(p.id)} />
            ),
          )}
        </Stack>
      )}
      {passkeysSupported() ? (
        <AddPasskeyForm guarded={guarded} onNewCodes={onNewCodes} />
      ) : (
        <Text size="sm" c="dimmed">
          {t('passkey_unsupported')}
        </Text>
      )}
    </AccountSubsection>
  );
}

function PasskeyItem({ passkey, guarded, onRename }: { passkey: Passkey; guarded: Guarded; onRename: () => void }) {
  const { t } = useTranslation();
  const formatDate = useFormatDate();
  const remove = useRemovePasskey();
  return (
    <Group component="li" justify="space-between" wrap="nowrap">
      <div style={{ minWidth: 0 }}>
        <Text size="sm" fw={600} style={{ wordBreak: 'break-word' }}>
          {passkey.name}
        </Text>
        <Text size="xs" c="dimmed">
          {passkey.last_used_at ? t('passkey_last_used', { date: formatDate(passkey.last_used_at) }) : t('passkey_never_used')}
          {' · '}
          {t('passkey_added_on', { date: formatDate(passkey.created_at) })}
        </Text>
      </div>
      <Group gap={4} wrap="nowrap">
        <ActionIcon variant="subtle" aria-label={t('passkey_rename', { name: passkey.name })} data-rename={passkey.id} onClick={onRename}>
          <IconPencil size={18} aria-hidden />
        </ActionIcon>
        <ActionIcon
          variant="subtle"
          color="red"
          aria-label={t('passkey_remove', { name: passkey.name })}
          onClick={() =>
            void guarded(async () => {
              await remove.mutateAsync(passkey.id);
              notifySuccess(t('passkey_removed'));
            })
          }
        >
          <IconTrash size={18} aria-hidden />
        </ActionIcon>
      </Group>
    </Group>
  );
}

function AddPasskeyForm({ guarded, onNewCodes }: { guarded: Guarded; onNewCodes: (codes: string[]) => void }) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const add = useAddPasskey();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void guarded(async () => {
      const result = await add.mutateAsync(name.trim() || t('passkey_default_name'));
      if (result.recovery_codes) onNewCodes(result.recovery_codes);
      setName('');
      notifySuccess(t('passkey_added'));
    });
  };

  return (
    <form onSubmit={submit}>
      <Group align="flex-end" wrap="wrap">
        <TextInput
          label={t('passkey_name')}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          maxLength={100}
          style={{ flex: 1, minWidth: 180 }}
        />
        <Button type="submit" loading={add.isPending}>
          {t('passkey_add')}
        </Button>
      </Group>
    </form>
  );
}
