import { useState } from 'react';
import { Button, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { errorLines, notifySuccess } from '@/components/notify';
import type { Organization } from '@partner-portal/contracts';
import { useSetSecondFactorPolicy } from '../api/second-factor-policy';
import { ModalFrame, ProblemSummary } from '@/components/modal-frame';

/** The confirmation of requiring or lifting the second-factor policy (./second-factor-policy.tsx). */
export function ConfirmPolicy({
  organization,
  required,
  onClose,
  onDone,
}: {
  organization: Organization;
  required: boolean;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const setPolicy = useSetSecondFactorPolicy(organization.id);
  const [problems, setProblems] = useState<string[] | null>(null);
  const confirm = () => {
    setProblems(null);
    setPolicy.mutate(required, {
      onSuccess: () => {
        notifySuccess(required ? t('sfp_required_done') : t('sfp_lifted_done'));
        onDone();
      },
      onError: (error) => setProblems(errorLines(error)),
    });
  };
  return (
    <ModalFrame title={required ? t('sfp_require_title') : t('sfp_lift_title')} onClose={onClose}>
      <Stack>
        <Text>{t(required ? 'sfp_require_confirm' : 'sfp_lift_confirm', { name: organization.name })}</Text>
        <ProblemSummary lines={problems} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} data-autofocus>
            {t('org_cancel')}
          </Button>
          <Button onClick={confirm} loading={setPolicy.isPending}>
            {required ? t('sfp_require') : t('sfp_lift')}
          </Button>
        </Group>
      </Stack>
    </ModalFrame>
  );
}
