import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { CopyField } from '@/components/copy-field';
import { ModalFrame } from '@/components/modal-frame';

/** A value shown after a creation, to copy; `secret`: the one that is never shown again. */
export interface ShownValue {
  label: string;
  value: string;
  testId: string;
  secret?: boolean;
}

/**
 * The second step of a creation (a service account's client secret, a SCIM token, a webhook's
 * signing secret): a dialog with what the server answered this once and what goes with it, each
 * with its Copy button, under the warning that it will not be seen again. The warning takes the
 * focus, so a screen reader reads it first. "Done, I have copied it" closes it, and so do Escape,
 * its × and a click outside once the secret has been copied; before that, they first ask whether
 * to close without copying, the answer's safe button focused.
 */
export function OnceShownModal({
  title,
  intro,
  values,
  onClose,
}: {
  title: string;
  intro: string;
  values: ShownValue[];
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  const [asking, setAsking] = useState(false);
  const warning = useRef<HTMLDivElement>(null);
  const keep = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (asking) keep.current?.focus();
    else warning.current?.focus();
  }, [asking]);
  // Escape, × or a click outside: straight away once copied; else asked first (and while asked, back to the secret)
  const requestClose = () => {
    if (copied) onClose();
    else setAsking(!asking);
  };

  return (
    <ModalFrame title={title} onClose={requestClose} size="lg">
      {asking ? (
        <Stack gap="sm" data-testid="once-shown-confirm">
          <Alert
            color="orange"
            variant="light"
            icon={<IconAlertTriangle aria-hidden />}
            title={t('integrations.once_close_title')}
            styles={{ title: { color: 'var(--mantine-color-dark-9)' }, message: { color: 'var(--mantine-color-dark-9)' } }}
          >
            {t('integrations.once_close_warning')}
          </Alert>
          <Group justify="flex-end" gap="sm">
            <Button ref={keep} variant="default" onClick={() => setAsking(false)}>
              {t('integrations.once_close_keep')}
            </Button>
            <Button color="red.8" onClick={onClose}>
              {t('integrations.once_close_discard')}
            </Button>
          </Group>
        </Stack>
      ) : (
        <Stack gap="sm" data-testid="once-shown">
          <Alert
            ref={warning}
            tabIndex={-1}
            data-autofocus
            color="yellow"
            variant="light"
            icon={<IconAlertTriangle aria-hidden />}
            title={t('integrations.once_title')}
            styles={{ title: { color: 'var(--mantine-color-dark-9)' }, message: { color: 'var(--mantine-color-dark-9)' } }}
          >
            {t('integrations.once_warning')}
          </Alert>
          <Text size="sm">{intro}</Text>
          {values.map((shown) => (
            <CopyField
              key={shown.testId}
              label={shown.label}
              value={shown.value}
              testId={shown.testId}
              onCopy={shown.secret ? () => setCopied(true) : undefined}
            />
          ))}
          <Group justify="flex-end">
            <Button onClick={onClose}>{t('integrations.once_done')}</Button>
          </Group>
        </Stack>
      )}
    </ModalFrame>
  );
}
