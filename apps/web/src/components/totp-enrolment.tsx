import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Alert, Button, Code, Group, Image, List, Stack, Text } from '@mantine/core';
import { useClipboard } from '@mantine/hooks';
import { IconAlertCircle, IconCheck, IconCopy } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { TotpEnrolmentResponse } from '@partner-portal/contracts';
import { ApiError } from '@/lib/api';
import { confirmTotp, startTotp } from '@/lib/factors';
import { notifyError } from './notify';
import { OneTimeCodeInput, useCodeEntry } from './one-time-code-input';
import { PrintableRecoveryCodes } from './recovery-code-actions';
// shown on the login page too (a sign-in that must set up an app), whose stylesheet holds only
// the components it renders itself (app/login-styles.ts)
import '@mantine/core/styles/Code.css';
import '@mantine/core/styles/Image.css';
import '@mantine/core/styles/List.css';

/**
 * Setting up an authenticator app: the QR code, the otpauth: link that opens the app on the phone
 * showing the page, and the key to type by hand (with its Copy button), confirmed with a first code; then the recovery
 * codes, shown once. Used by the profile and by a sign-in that must set up a second factor first.
 */
export function TotpEnrolment({
  initial,
  onDone,
  onCancel,
  focusOnShow = true,
}: {
  /** an enrolment already started by the caller (else it starts here) */
  initial?: TotpEnrolmentResponse;
  onDone: (result: { valid_return_url?: string | null }) => void;
  onCancel?: () => void;
  /** whether the set-up takes the focus as it shows (it follows the button that started it) */
  focusOnShow?: boolean;
}) {
  const { t } = useTranslation();
  const [enrolment, setEnrolment] = useState<TotpEnrolmentResponse | null>(initial ?? null);
  const clipboard = useClipboard({ timeout: 2000 });
  const { field, submit, busy, setError } = useCodeEntry();
  const [result, setResult] = useState<{ recovery_codes: string[]; valid_return_url?: string | null } | null>(null);
  const started = useRef(false);
  const form = useRef<HTMLFormElement>(null);
  const shown = enrolment !== null;
  // the set-up takes the place of the button that started it: the focus goes to its start
  useEffect(() => {
    if (shown && focusOnShow) form.current?.focus();
  }, [shown, focusOnShow]);

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

  const confirm = (event: FormEvent) =>
    submit(
      event,
      async (code) => setResult(await confirmTotp(code)),
      (err) => {
        if (err instanceof ApiError && err.key === 'second_factor_code_invalid') setError('second_factor_code_invalid');
        else notifyError(err);
      },
    );

  if (result) return <FirstRecoveryCodes headingId="recovery-codes-heading" codes={result.recovery_codes} onDone={() => onDone(result)} />;
  if (!enrolment) return <Text c="dimmed">{t('loading')}</Text>;
  return (
    <form onSubmit={confirm} noValidate ref={form} tabIndex={-1} aria-labelledby="totp-scan" data-testid="totp-enrolment">
      <Stack gap="sm">
        <Text size="sm" id="totp-scan">
          {t('totp_scan')}
        </Text>
        <Image src={enrolment.qr_code} alt={t('totp_qr_alt')} w={200} h={200} fit="contain" />
        {/* the QR code cannot be scanned by the phone that shows it: the app opens the key itself */}
        <Text size="sm" c="dimmed" id="totp-open-in-app-hint">
          {t('authenticatorOnPhone.openInAppHint')}
        </Text>
        <Button
          component="a"
          href={enrolment.otpauth_uri}
          variant="light"
          aria-describedby="totp-open-in-app-hint"
          style={{ alignSelf: 'flex-start' }}
        >
          {t('authenticatorOnPhone.openInApp')}
        </Button>
        <Text size="sm" fw={600} id="totp-manual-key">
          {t('totp_manual_key')}
        </Text>
        <Code block aria-labelledby="totp-manual-key" style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }} data-testid="totp-key">
          {enrolment.secret.replace(/(.{4})/g, '$1 ').trim()}
        </Code>
        <Button
          variant="default"
          size="compact-sm"
          style={{ alignSelf: 'flex-start' }}
          leftSection={clipboard.copied ? <IconCheck size={14} aria-hidden /> : <IconCopy size={14} aria-hidden />}
          onClick={() => clipboard.copy(enrolment.secret)}
        >
          {clipboard.copied ? t('authenticatorOnPhone.copiedKey') : t('authenticatorOnPhone.copyKey')}
        </Button>
        <OneTimeCodeInput label={t('totp_code')} inputMode="numeric" {...field} />
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

/**
 * The recovery codes that come with a first second factor, shown once and focused as they
 * appear; `notice` first says what was set up. Done hands on to what follows.
 */
export function FirstRecoveryCodes({
  headingId,
  codes,
  notice,
  onDone,
}: {
  headingId: string;
  codes: string[];
  notice?: ReactNode;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <Stack gap="sm" ref={ref} tabIndex={-1} aria-labelledby={headingId}>
      {notice}
      <Text fw={600} id={headingId}>
        {t('recovery_codes_title')}
      </Text>
      <Alert color="yellow" variant="light" icon={<IconAlertCircle aria-hidden />}>
        {t('recovery_codes_show_once')}
      </Alert>
      <RecoveryCodeList codes={codes} onDone={onDone} />
    </Stack>
  );
}

/** Recovery codes, one a line, to copy, download or print, and the button that says they are kept. */
export function RecoveryCodeList({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useTranslation();
  return (
    <>
      <PrintableRecoveryCodes codes={codes}>
        <List spacing={4} size="sm" listStyleType="none" data-testid="recovery-codes">
          {codes.map((c) => (
            <List.Item key={c}>
              <Code>{c}</Code>
            </List.Item>
          ))}
        </List>
      </PrintableRecoveryCodes>
      <Group justify="flex-end">
        <Button onClick={onDone}>{t('recovery_codes_done')}</Button>
      </Group>
    </>
  );
}
