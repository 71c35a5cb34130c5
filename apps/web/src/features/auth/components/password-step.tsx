import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Button, Checkbox, PasswordInput, Stack } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { LoginConsentResponse } from '@partner-portal/contracts';
import { ApiError, retryAfterMs } from '@/lib/api';
import { login } from '../api/login';
import type { LoginStepProps } from './login-step';
import type { SignInPause } from './sign-in-paused';

/**
 * The login's second step: the password (and "remember me") for the address given, which is a
 * button back to the first step. The portal may then ask for a second factor or for setting one
 * up (`onNextStep`), send the user to an external identity provider (`onExternal`), or sign in.
 * Past the limit of failed passwords sign-in is paused for the account (`onPaused`, until the
 * 429's Retry-After; null at the next try): the password typed stays for when the pause is over.
 */
export function PasswordStep({
  email,
  returnUrl,
  returnPath,
  onBack,
  onFormError,
  onExternal,
  onNextStep,
  onSignedIn,
  onPaused,
  onInvalidLogin,
}: LoginStepProps & {
  onBack: () => void;
  /** the address and password did not match (the login page then offers to ask for access) */
  onInvalidLogin?: (email: string) => void;
  onPaused: (pause: SignInPause | null) => void;
  onNextStep: (step: 'second_factor' | 'enrol') => void;
  onSignedIn: (result: LoginConsentResponse) => Promise<void>;
}) {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const passwordRef = useRef<HTMLInputElement>(null);

  // the step opens after the e-mail step: the focus goes to the password
  useEffect(() => passwordRef.current?.focus(), []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    onFormError(null);
    onPaused(null);
    if (!email.trim() || !password) return onFormError('fill_all_required_fields');
    setSubmitting(true);
    try {
      const result = await login({ email: email.trim(), password, remember, return_url: returnUrl, return_path: returnPath });
      if (result.error) {
        onInvalidLogin?.(email.trim());
        return onFormError('invalid_login');
      }
      if (result.external_login) return onExternal(result.external_login);
      if (result.next_step) {
        setPassword('');
        return onNextStep(result.next_step === 'second_factor' ? 'second_factor' : 'enrol');
      }
      await onSignedIn(result);
    } catch (err) {
      if (err instanceof ApiError && err.status === 429) {
        const wait = retryAfterMs(err.retryAfter);
        return onPaused({ email: email.trim(), until: wait === null ? null : Date.now() + wait });
      }
      if (err instanceof ApiError && err.key === 'interaction_expired') onFormError('interaction_expired');
      else if (err instanceof ApiError && err.status >= 400 && err.status < 500) {
        onInvalidLogin?.(email.trim());
        onFormError('invalid_login');
      } else onFormError('error_try_again');
      setPassword('');
      passwordRef.current?.focus();
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <Stack gap="md">
        <input type="email" name="email" autoComplete="username" value={email} readOnly hidden />
        <Button
          variant="default"
          onClick={onBack}
          leftSection={<IconArrowLeft size={16} aria-hidden />}
          justify="flex-start"
          aria-label={t('change_email_address', { email: email.trim() })}
          title={email.trim()}
          // a long address wraps, shown whole on a phone
          h="auto"
          mih={36}
          py={6}
          styles={{ label: { whiteSpace: 'normal', overflowWrap: 'anywhere', textAlign: 'start', height: 'auto' } }}
        >
          <span data-login-address>{email.trim()}</span>
        </Button>
        <PasswordInput
          ref={passwordRef}
          label={t('password')}
          name="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
          maxLength={100}
        />
        <Checkbox label={t('remember_me')} checked={remember} onChange={(e) => setRemember(e.currentTarget.checked)} />
        <Button type="submit" loading={submitting} fullWidth>
          {t('login')}
        </Button>
      </Stack>
    </form>
  );
}
