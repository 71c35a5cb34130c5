import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Button, Stack, Text } from '@mantine/core';
import { IconKey } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { LoginConsentResponse } from '@partner-portal/contracts';
import { notifyError } from '@/components/notify';
import { OneTimeCodeInput } from '@/components/one-time-code-input';
import { ApiError } from '@/lib/api';
import { isPasskeyCancelled, passkeysSupported, signInWithPasskey } from '@/lib/factors';
import { secondFactor } from '../api/second-factor';

/**
 * The second step of the sign-in (docs/second-factors.md): a code of the authenticator app, a
 * recovery code, or a passkey.
 */
export function SecondFactorStep({ onDone, onExpired }: { onDone: (result: LoginConsentResponse) => void; onExpired: () => void }) {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const codeRef = useRef<HTMLInputElement>(null);

  useEffect(() => codeRef.current?.focus(), []);

  const failed = (err: unknown) => {
    if (err instanceof ApiError && err.key === 'second_step_expired') return onExpired();
    if (err instanceof ApiError && (err.key === 'second_factor_code_invalid' || err.key === 'passkey_not_verified')) setError(t(err.key));
    else notifyError(err);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!code.trim()) return setError(t('fill_all_required_fields'));
    setBusy(true);
    setError(null);
    try {
      onDone(await secondFactor({ code: code.trim() }));
    } catch (err) {
      failed(err);
      setCode('');
      codeRef.current?.focus();
    } finally {
      setBusy(false);
    }
  };

  const signInWithAPasskey = async () => {
    setBusy(true);
    setError(null);
    try {
      onDone(await signInWithPasskey(false, {}));
    } catch (err) {
      if (isPasskeyCancelled(err)) setError(t('passkey_cancelled'));
      else failed(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <Stack gap="md">
        <Text fw={600}>{t('second_step_title')}</Text>
        <Text size="sm">{t('second_step_text')}</Text>
        <OneTimeCodeInput
          ref={codeRef}
          label={t('second_step_code')}
          name="code"
          required
          value={code}
          onChange={(value) => {
            setCode(value);
            setError(null);
          }}
          error={error}
        />
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
