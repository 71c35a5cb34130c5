import { useEffect, useRef, type FormEvent } from 'react';
import { Button, Stack, Text } from '@mantine/core';
import { IconKey } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { LoginConsentResponse } from '@partner-portal/contracts';
import { notifyError } from '@/components/notify';
import { OneTimeCodeInput, useCodeEntry } from '@/components/one-time-code-input';
import { ApiError } from '@/lib/api';
import { isPasskeyCancelled, passkeysSupported, signInWithPasskey } from '@/lib/factors';
import { secondFactor } from '../api/second-factor';

/**
 * The second step of the sign-in (docs/second-factors.md): a code of the authenticator app, a
 * recovery code, or a passkey.
 */
export function SecondFactorStep({ onDone, onExpired }: { onDone: (result: LoginConsentResponse) => void; onExpired: () => void }) {
  const { t } = useTranslation();
  const { field, submit, attempt, busy, setError } = useCodeEntry();
  const codeRef = useRef<HTMLInputElement>(null);

  useEffect(() => codeRef.current?.focus(), []);

  const failed = (err: unknown) => {
    if (err instanceof ApiError && err.key === 'second_step_expired') return onExpired();
    if (err instanceof ApiError && (err.key === 'second_factor_code_invalid' || err.key === 'passkey_not_verified')) setError(err.key);
    else notifyError(err);
  };

  const verify = (event: FormEvent) =>
    submit(
      event,
      async (code) => onDone(await secondFactor({ code })),
      (err) => {
        failed(err);
        codeRef.current?.focus();
      },
    );

  const signInWithAPasskey = () =>
    attempt(
      async () => onDone(await signInWithPasskey(false, {})),
      (err) => {
        if (isPasskeyCancelled(err)) setError('passkey_cancelled');
        else failed(err);
      },
    );

  return (
    <form onSubmit={verify} noValidate>
      <Stack gap="md">
        <Text fw={600}>{t('second_step_title')}</Text>
        <Text size="sm">{t('second_step_text')}</Text>
        <OneTimeCodeInput ref={codeRef} label={t('second_step_code')} {...field} />
        <Button type="submit" loading={busy} fullWidth>
          {t('second_step_verify')}
        </Button>
        {passkeysSupported() && (
          <Button
            variant="default"
            leftSection={<IconKey size={16} aria-hidden />}
            onClick={() => void signInWithAPasskey()}
            disabled={busy}
            fullWidth
          >
            {t('use_passkey')}
          </Button>
        )}
      </Stack>
    </form>
  );
}
