import { useState } from 'react';
import { Badge, Button, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { FactorsResponse, TotpEnrolmentResponse } from '@partner-portal/contracts';
import { notifySuccess } from '@/components/notify';
import { TotpEnrolment } from '@/components/totp-enrolment';
import { useFormatDate } from '@/lib/dates';
import { startTotp } from '@/lib/factors';
import { useRefreshFactors, useRemoveTotp } from '../api/factors';
import { AccountSubsection } from './account-subsection';
import type { Guarded } from './confirm-identity';

/** The authenticator app: set it up (the QR code, a first code), or see since when it is on and remove it. */
export function AuthenticatorApp({ totp, guarded }: { totp: FactorsResponse['totp'] | undefined; guarded: Guarded }) {
  const { t } = useTranslation();
  const formatDate = useFormatDate();
  const [enrolling, setEnrolling] = useState<TotpEnrolmentResponse | null>(null);
  const refresh = useRefreshFactors();
  const remove = useRemoveTotp();

  return (
    <AccountSubsection title={t('totp_title')}>
      {enrolling ? (
        <TotpEnrolment
          initial={enrolling}
          onCancel={() => setEnrolling(null)}
          onDone={() => {
            setEnrolling(null);
            notifySuccess(t('totp_added'));
            void refresh();
          }}
        />
      ) : totp?.enabled ? (
        <Group justify="space-between" wrap="wrap">
          <Badge color="green" variant="light">
            {t('totp_enabled', { date: formatDate(totp.confirmed_at) })}
          </Badge>
          <Button
            variant="default"
            color="red"
            loading={remove.isPending}
            onClick={() =>
              void guarded(async () => {
                await remove.mutateAsync();
                notifySuccess(t('totp_removed'));
              })
            }
          >
            {t('totp_remove')}
          </Button>
        </Group>
      ) : (
        <Group justify="space-between" wrap="wrap">
          <Text size="sm">{t('totp_not_enabled')}</Text>
          <Button onClick={() => void guarded(async () => setEnrolling(await startTotp()))}>{t('totp_set_up')}</Button>
        </Group>
      )}
    </AccountSubsection>
  );
}
