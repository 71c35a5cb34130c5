import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Alert, Button, Code, Group, Image, List, Stack, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { TotpEnrolmentResponse } from '@partner-portal/contracts';
import { ApiError } from '@/lib/api';
import { confirmTotp, startTotp } from '@/lib/factors';
import { notifyError } from './notify';
import { OneTimeCodeInput } from './one-time-code-input';
// shown on the login page too (a sign-in that must set up an app), whose stylesheet holds only
// the components it renders itself (app/login-styles.ts)
import '@mantine/core/styles/Code.css';
import '@mantine/core/styles/Image.css';
import '@mantine/core/styles/List.css';

/**
 * Setting up an authenticator app: the QR code and the key to type by hand, confirmed with a
 * first code; then the recovery codes, shown once. Used by the profile and by a sign-in that must
 * set up a second factor first.
 */
export function TotpEnrolment({
  initial,
  onDone,
  onCancel,
}: {
  /** an enrolment already started by the caller (else it starts here) */
  initial?: TotpEnrolmentResponse;
  onDone: (result: { valid_return_url?: string | null }) => void;
  onCancel?: () => void;
}) {
  const { t } = useTranslation();
  const [enrolment, setEnrolment] = useState<TotpEnrolmentResponse | null>(initial ?? null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ recovery_codes: string[]; valid_return_url?: string | null } | null>(null);
  const started = useRef(false);
  const codesRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (started.current || initial) return;
    started.current = true;
    startTotp()
      .then(setEnrolment)
      .catch((err: unknown) => {
        notifyError(err);
        onCancel?.();
      });
  }, [initial, onCancel]);

  useEffect(() => {
    if (result) codesRef.current?.focus();
  }, [result]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!code.trim()) return setError(t('fill_all_required_fields'));
    setBusy(true);
    setError(null);
    try {
      setResult(await confirmTotp(code.trim()));
    } catch (err) {
      if (err instanceof ApiError && err.key === 'second_factor_code_invalid') setError(t('second_factor_code_invalid'));
      else notifyError(err);
      setCode('');
    } finally {
      setBusy(false);
    }
  };

  if (result) {
    return (
      <Stack gap="sm" ref={codesRef} tabIndex={-1} aria-labelledby="recovery-codes-heading">
        <Text fw={600} id="recovery-codes-heading">
          {t('recovery_codes_title')}
        </Text>
        <Alert color="yellow" variant="light" icon={<IconAlertCircle aria-hidden />}>
          {t('recovery_codes_show_once')}
        </Alert>
        <RecoveryCodeList codes={result.recovery_codes} />
        <Group justify="flex-end">
          <Button onClick={() => onDone(result)}>{t('recovery_codes_done')}</Button>
        </Group>
      </Stack>
    );
  }
  if (!enrolment) return <Text c="dimmed">{t('loading')}</Text>;
  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <Stack gap="sm">
        <Text size="sm">{t('totp_scan')}</Text>
        <Image src={enrolment.qr_code} alt={t('totp_qr_alt')} w={200} h={200} fit="contain" />
        <Text size="sm" fw={600} id="totp-manual-key">
          {t('totp_manual_key')}
        </Text>
        <Code block aria-labelledby="totp-manual-key" style={{ wordBreak: 'break-all' }}>
          {enrolment.secret.replace(/(.{4})/g, '$1 ').trim()}
        </Code>
        <OneTimeCodeInput
          label={t('totp_code')}
          name="code"
          inputMode="numeric"
          required
          value={code}
          onChange={(value) => {
            setCode(value);
            setError(null);
          }}
          error={error}
        />
        <Group justify="flex-end" gap="sm">
          {onCancel && (
            <Button variant="default" onClick={onCancel}>
              {t('cancel')}
            </Button>
          )}
          <Button type="submit" loading={busy}>
            {t('totp_confirm')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export function RecoveryCodeList({ codes }: { codes: string[] }) {
  return (
    <List spacing={4} size="sm" listStyleType="none" data-testid="recovery-codes">
      {codes.map((c) => (
        <List.Item key={c}>
          <Code>{c}</Code>
        </List.Item>
      ))}
    </List>
  );
}
