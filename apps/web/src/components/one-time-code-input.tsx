import { forwardRef, useState, type FormEvent } from 'react';
import { TextInput, type TextInputProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/**
 * The field of a code from an authenticator app (or a recovery code): the browser may fill it from
 * a text message or a password manager (`one-time-code`), and a code is never longer than 64
 * characters. Used by the app's set-up, the sign-in's second step and the identity check.
 */
export const OneTimeCodeInput = forwardRef<HTMLInputElement, Omit<TextInputProps, 'onChange'> & { onChange: (value: string) => void }>(
  function OneTimeCodeInput({ onChange, ...props }, ref) {
    return <TextInput ref={ref} autoComplete="one-time-code" maxLength={64} onChange={(e) => onChange(e.currentTarget.value)} {...props} />;
  },
);

/**
 * A form that sends one required code (the app's set-up, the sign-in's second step): `field` goes
 * on its OneTimeCodeInput, and typing clears the error. `submit`, on the form's submit, asks for a
 * code when none is typed, else sends it trimmed and clears the field when it fails; `attempt`
 * runs any other way in (a passkey) with the same busy state and error. The error is kept as its
 * translation key and translated as it shows, so that it follows a change of language.
 */
export function useCodeEntry() {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const attempt = async (action: () => Promise<void>, failed: (err: unknown) => void) => {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (err) {
      failed(err);
    } finally {
      setBusy(false);
    }
  };

  const submit = (event: FormEvent, send: (code: string) => Promise<void>, failed: (err: unknown) => void) => {
    event.preventDefault();
    if (!code.trim()) return setError('fill_all_required_fields');
    void attempt(
      () => send(code.trim()),
      (err) => {
        failed(err);
        setCode('');
      },
    );
  };

  const field = {
    name: 'code',
    required: true,
    value: code,
    onChange: (value: string) => {
      setCode(value);
      setError(null);
    },
    error: error && t(error),
  };
  return { field, submit, attempt, busy, setError };
}
