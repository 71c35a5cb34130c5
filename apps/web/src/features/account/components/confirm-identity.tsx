import { useRef, useState, type FormEvent } from 'react';
import { Modal, PasswordInput, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { FormActions } from '@/components/form-actions';
import { notifyError } from '@/components/notify';
import { OneTimeCodeInput } from '@/components/one-time-code-input';
import { ApiError } from '@/lib/api';
import { isPasskeyCancelled } from '@/lib/factors';
import { useConfirmIdentity } from '../api/factors';

type Action = () => Promise<unknown>;

/**
 * Changes that need a password or code checked in the last five minutes: `guarded` runs one; when
 * the portal asks for a fresh password or code, the modal (`modal` props) asks for it and the
 * change runs again after. Closed, the modal gives the focus back to the control that started the
 * change, as it was when clicked (a button busy with its request has lost the focus by the time
 * the modal opens).
 */
export function useIdentityGuard() {
  const [pending, setPending] = useState<Action | null>(null);
  const opener = useRef<Element | null>(null);

  const guarded = async (action: Action) => {
    const focusedBefore = document.activeElement;
    try {
      await action();
    } catch (err) {
      if (err instanceof ApiError && err.key === 'recent_authentication_required') {
        opener.current = focusedBefore;
        setPending(() => action);
      } else if (!isPasskeyCancelled(err)) notifyError(err);
    }
  };

  const close = () => {
    setPending(null);
    const target = opener.current;
    opener.current = null;
    // after the modal has released its focus trap
    window.setTimeout(() => {
      if (target instanceof HTMLElement && target.isConnected) target.focus();
    }, 0);
  };

  const modal = {
    opened: pending !== null,
    onClose: close,
    onConfirmed: () => {
      const action = pending;
      close();
      if (action) void guarded(action);
    },
  };
  return { guarded, modal };
}

export type Guarded = ReturnType<typeof useIdentityGuard>['guarded'];

export function ConfirmIdentityModal({ opened, onClose, onConfirmed }: { opened: boolean; onClose: () => void; onConfirmed: () => void }) {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const confirm = useConfirmIdentity();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!password && !code.trim()) return setError('fill_all_required_fields');
    setError(null);
    confirm.mutate(code.trim() ? { code: code.trim() } : { password }, {
      onSuccess: () => {
        setPassword('');
        setCode('');
        onConfirmed();
      },
      onError: (err) => {
        if (err instanceof ApiError && (err.key === 'current_password_incorrect' || err.key === 'second_factor_code_invalid'))
          setError(err.key);
        else notifyError(err);
      },
    });
  };

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('confirm_identity_title')}
      closeButtonProps={{ 'aria-label': t('close') }}
      // useIdentityGuard gives the focus back
      returnFocus={false}
    >
      <form onSubmit={submit} noValidate>
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
          <OneTimeCodeInput label={t('confirm_identity_code')} value={code} onChange={setCode} error={error && t(error)} />
          <FormActions submit={t('totp_confirm')} busy={confirm.isPending} onCancel={onClose} />
        </Stack>
      </form>
    </Modal>
  );
}
