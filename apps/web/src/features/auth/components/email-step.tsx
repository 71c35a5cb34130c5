import { useState, useSyncExternalStore, type FormEvent, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyError } from '@/components/notify';
import { Button, InputField, Stack } from '@/components/plain';
import { ApiError } from '@/lib/api';
import { passkeysPossible } from '@/lib/passkey-origin';
import { emailLogin } from '../api/email-login';
import type { LoginStepProps } from './login-step';

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Whether passkeys can work here; the pre-rendered page (and its hydration) says not, the browser then tells. */
const usePasskeysPossible = () =>
  useSyncExternalStore(
    () => () => undefined,
    passkeysPossible,
    () => false,
  );

/**
 * The login's first step: the e-mail address. Its domain may sign in through an external identity
 * provider (`onExternal`, where to go); else the password comes next (`onNext`). Mantine's
 * `TextInput` and `Button` as plain elements: the login route renders without Mantine (components/plain.tsx).
 */
export function EmailStep({
  inputRef,
  email,
  onEmailChange,
  returnUrl,
  returnPath,
  onFormError,
  onExternal,
  onSubmitted,
  onNext,
  passwordLogin = false,
}: LoginStepProps & {
  inputRef: Ref<HTMLInputElement>;
  onEmailChange: (email: string) => void;
  /** a valid address is on its way to the server (the next step may get ready meanwhile) */
  onSubmitted?: () => void;
  onNext: () => void;
  /** the visitor asked for the password step (an account elsewhere in the tree of a domain a provider signs in) */
  passwordLogin?: boolean;
}) {
  const { t } = useTranslation();
  const [emailError, setEmailError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const passkeys = usePasskeysPossible();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    onFormError(null);
    const value = email.trim();
    if (!value) return setEmailError('fill_all_required_fields');
    if (!EMAIL_PATTERN.test(value) || value.length > 100) return setEmailError('invalid_email_address');
    setEmailError(null);
    setSubmitting(true);
    onSubmitted?.();
    try {
      const result = await emailLogin({
        email: value,
        return_url: returnUrl,
        return_path: returnPath,
        ...(passwordLogin ? { password_login: true } : {}),
      });
      if (result.external_login) return onExternal(result.external_login);
      onNext();
    } catch (err) {
      if (err instanceof ApiError && err.status === 429) notifyError(err);
      else if (err instanceof ApiError && err.status === 400) setEmailError('invalid_email_address');
      else onFormError('error_try_again');
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <Stack gap="md">
        <InputField
          kind="TextInput"
          label={t('email_address')}
          required
          error={emailError && t(emailError)}
          field={(props) => (
            <input
              {...props}
              ref={inputRef}
              type="email"
              name="email"
              // the browser offers passkeys among the suggestions only where they can work (hooks/use-passkey-autofill.ts)
              autoComplete={passkeys ? 'username webauthn' : 'username'}
              inputMode="email"
              autoFocus
              value={email}
              onChange={(e) => {
                onEmailChange(e.currentTarget.value);
                setEmailError(null);
              }}
              maxLength={100}
            />
          )}
        />
        <Button type="submit" loading={submitting} fullWidth>
          {t('next')}
        </Button>
      </Stack>
    </form>
  );
}
