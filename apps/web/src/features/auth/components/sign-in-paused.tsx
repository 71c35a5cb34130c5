import { useEffect, useState } from 'react';
import { Alert, Stack, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { TextLink } from '@/components/text-link';
import { paths } from '@/lib/paths';
import { waitInWords } from '../lib/wait-time';

/** Sign-in paused for an address: until when (null: the portal did not say), from the 429's Retry-After. */
export interface SignInPause {
  email: string;
  until: number | null;
}

/**
 * The login page's message while sign-in is paused for an account (too many failed passwords:
 * docs/security.md, "Limits and thresholds"): how long is left, counting down (a timer, which
 * screen readers do not read out at every tick), and what to do — reset the password or ask the
 * administrator. `onOver` when the pause has ended.
 */
export function SignInPaused({ pause, onOver }: { pause: SignInPause; onOver: () => void }) {
  const { t, i18n } = useTranslation();
  const [now, setNow] = useState(Date.now);
  const { until } = pause;
  const left = until === null ? null : Math.max(0, Math.ceil((until - now) / 1000));

  useEffect(() => {
    if (until === null) return;
    const timer = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(timer);
  }, [until]);
  useEffect(() => {
    if (left === 0) onOver();
  }, [left, onOver]);

  return (
    <Alert color="red" variant="light" icon={<IconAlertCircle aria-hidden />} title={t('loginPaused.title')} role="alert">
      <Stack gap={4}>
        <Text size="sm">
          {left === null ? (
            t('loginPaused.later')
          ) : (
            <>
              {t('loginPaused.wait')} <span role="timer">{waitInWords(left, i18n.resolvedLanguage ?? i18n.language)}</span>.
            </>
          )}
        </Text>
        <Text size="sm">{t('loginPaused.help')}</Text>
        <TextLink to={`${paths.forgotPassword}?email=${encodeURIComponent(pause.email)}`}>{t('loginPaused.reset')}</TextLink>
      </Stack>
    </Alert>
  );
}
