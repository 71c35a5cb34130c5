import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { RecoveryCodeList } from '@/components/totp-enrolment';
import { useRegenerateRecoveryCodes } from '../api/factors';
import type { Guarded } from './confirm-identity';

/** New recovery codes, shown once until the user says they are kept. */
export function NewRecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm">
      <Text fw={600}>{t('recovery_codes_title')}</Text>
      <Alert color="yellow" variant="light">
        {t('recovery_codes_show_once')}
      </Alert>
      <RecoveryCodeList codes={codes} onDone={onDone} />
    </Stack>
  );
}

/** How many recovery codes are left, and a new set (the old ones stop working). */
export function RecoveryCodes({
  remaining,
  guarded,
  onNewCodes,
}: {
  remaining: number;
  guarded: Guarded;
  onNewCodes: (codes: string[]) => void;
}) {
  const { t } = useTranslation();
  const regenerate = useRegenerateRecoveryCodes();
  return (
    <Group justify="space-between" wrap="wrap">
      <Text size="sm">{t('recovery_codes_remaining', { number: remaining })}</Text>
      <Button
        variant="default"
        loading={regenerate.isPending}
        h="auto"
        mih={36}
        maw="100%"
        styles={{ label: { whiteSpace: 'normal', textAlign: 'center', paddingBlock: 6 } }}
        onClick={() => void guarded(async () => onNewCodes((await regenerate.mutateAsync()).recovery_codes))}
      >
        {t('recovery_codes_new')}
      </Button>
    </Group>
  );
}
