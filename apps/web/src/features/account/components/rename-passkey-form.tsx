import { useState, type FormEvent } from 'react';
import { Button, Group, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Passkey } from '@partner-portal/contracts';
import { notifyError, notifySuccess } from '@/components/notify';
import { ApiError } from '@/lib/api';
import { useRenamePasskey } from '../api/passkeys';

/** A new name for a passkey (no fresh password needed: a name changes nothing about signing in). Escape closes it. */
export function RenamePasskeyForm({ passkey, onClose }: { passkey: Passkey; onClose: () => void }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<{ name: string; error: string | null }>({ name: passkey.name, error: null });
  const rename = useRenamePasskey();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const name = draft.name.trim();
    if (!name) return setDraft({ name: draft.name, error: t('fill_all_required_fields') });
    rename.mutate(
      { id: passkey.id, name },
      {
        onSuccess: () => {
          notifySuccess(t('passkey_renamed'));
          onClose();
        },
        onError: (err) => {
          if (err instanceof ApiError && err.status === 400) setDraft({ name: draft.name, error: t('passkey_name_too_long') });
          else notifyError(err);
        },
      },
    );
  };

  return (
    <form
      onSubmit={submit}
      onKeyDown={(e) => {
        if (e.key === 'Escape') onClose();
      }}
    >
      <Group align="flex-end" wrap="wrap" gap="xs">
        <TextInput
          label={t('passkey_new_name', { name: passkey.name })}
          value={draft.name}
          onChange={(e) => setDraft({ name: e.currentTarget.value, error: null })}
          error={draft.error}
          maxLength={100}
          data-autofocus
          autoFocus
          style={{ flex: 1, minWidth: 180 }}
        />
        <Group gap="xs">
          <Button type="submit" loading={rename.isPending}>
            {t('save')}
          </Button>
          <Button variant="default" onClick={onClose}>
            {t('cancel')}
          </Button>
        </Group>
      </Group>
    </form>
  );
}
