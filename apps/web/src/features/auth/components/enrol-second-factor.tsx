import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Stack, Text } from '@mantine/core';
import { IconAlertCircle, IconDeviceMobile, IconKey } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { notifyError } from '@/components/notify';
import { FirstRecoveryCodes, TotpEnrolment } from '@/components/totp-enrolment';
import { ApiError } from '@/lib/api';
import { createPasskeyCredential, isPasskeyCancelled, passkeysSupported, registerPasskey } from '@/lib/factors';

/**
 * A sign-in that must set up a second factor before its session starts (docs/second-factors.md):
 * a passkey on this device (offered first where the browser can make one) or an authenticator
 * app. Either one starts the session; the recovery codes are shown once before going on.
 */
export function EnrolSecondFactor({
  onDone,
  onExpired,
}: {
  onDone: (result: { valid_return_url?: string | null }) => void;
  onExpired: () => void;
}) {
  const { t } = useTranslation();
  const canPasskey = passkeysSupported();
  // without passkeys in this browser the app is the one way: its set-up starts at once
  const [choice, setChoice] = useState<'choose' | 'totp'>(canPasskey ? 'choose' : 'totp');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [codes, setCodes] = useState<{ recovery_codes: string[]; valid_return_url?: string | null } | null>(null);
  const title = useRef<HTMLParagraphElement>(null);
  // the step takes the place of the password form: the focus goes to its title
  useEffect(() => title.current?.focus(), []);

  const setUpPasskey = async () => {
    setBusy(true);
    setError(null);
    try {
      const result = await registerPasskey(null, await createPasskeyCredential());
      if (result.recovery_codes) setCodes({ recovery_codes: result.recovery_codes, valid_return_url: result.valid_return_url });
      else onDone(result);
    } catch (err) {
      if (isPasskeyCancelled(err)) setError('passkey_cancelled');
      else if (err instanceof ApiError && (err.key === 'second_step_expired' || err.status === 401)) onExpired();
      else if (err instanceof ApiError && err.key === 'passkey_not_verified') setError('passkey_not_verified');
      else notifyError(err);
    } finally {
      setBusy(false);
    }
  };

  if (codes) {
    return (
      <FirstRecoveryCodes
        headingId="enrol-recovery-codes-heading"
        codes={codes.recovery_codes}
        notice={
          <Alert color="green" variant="light" role="status">
            {t('enrol_passkey_done')}
          </Alert>
        }
        onDone={() => onDone(codes)}
      />
    );
  }

  return (
    <Stack gap="sm">
      <Text fw={600} ref={title} tabIndex={-1}>
        {t('enrol_title')}
      </Text>
      <Text size="sm">{t('enrol_text')}</Text>
      {error ? (
        <Alert color="red" variant="light" icon={<IconAlertCircle aria-hidden />} role="alert">
          {t(error)}
        </Alert>
      ) : null}
      {choice === 'totp' ? (
        <TotpEnrolment onDone={onDone} onCancel={canPasskey ? () => setChoice('choose') : onExpired} focusOnShow={canPasskey} />
      ) : (
        <Stack gap="sm">
          {canPasskey ? (
            <>
              <Button leftSection={<IconKey size={16} aria-hidden />} onClick={() => void setUpPasskey()} loading={busy} fullWidth>
                {t('enrol_passkey')}
              </Button>
              <Text size="xs" c="dimmed">
                {t('enrol_passkey_help')}
              </Text>
            </>
          ) : null}
          <Button
            variant={canPasskey ? 'default' : 'filled'}
            leftSection={<IconDeviceMobile size={16} aria-hidden />}
            onClick={() => setChoice('totp')}
            disabled={busy}
            fullWidth
          >
            {t('enrol_totp')}
          </Button>
        </Stack>
      )}
    </Stack>
  );
}
