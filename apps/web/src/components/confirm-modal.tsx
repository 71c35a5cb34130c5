import { useState } from 'react';
import { Button, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { errorLines } from '@/components/notify';
import { withRightsInWords } from '@/lib/rights-in-words';
import { ModalFrame, ProblemSummary } from '@/components/modal-frame';

/** A confirmation for an irreversible action (delete organization, remove user, reset second factors, revoke invitation); a refusal names rights in words. */
export function ConfirmModal({
  title,
  message,
  confirmLabel,
  onClose,
  onConfirm,
}: {
  title: string;
  message: string;
  confirmLabel: string;
  onClose: () => void;
  onConfirm: () => Promise<void>;
}) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [problems, setProblems] = useState<string[] | null>(null);
  const confirm = async () => {
    setBusy(true);
    setProblems(null);
    try {
      await onConfirm();
    } catch (error) {
      setProblems(errorLines(withRightsInWords(error, t)));
      setBusy(false);
    }
  };
  return (
    <ModalFrame title={title} onClose={onClose}>
      <Stack>
        <Text>{message}</Text>
        <ProblemSummary lines={problems} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} data-autofocus>
            {t('org_cancel')}
          </Button>
          <Button color="red" onClick={() => void confirm()} loading={busy}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </ModalFrame>
  );
}
