import { useEffect, useRef } from 'react';
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { CopyField } from '../copy-field';

/** A value shown after a creation, to copy: the secret among them is never shown again. */
export interface ShownValue {
  label: string;
  value: string;
  testId: string;
}

/**
 * The second step of a creation modal: what the server answered this once (a client secret, a
 * SCIM token, a signing secret) with what goes with it, each with its Copy button, under the
 * warning that it will not be seen again. The warning takes the focus, so a screen reader reads it
 * first; Done closes the modal.
 */
export function OnceShown({ intro, values, onDone }: { intro: string; values: ShownValue[]; onDone: () => void }) {
  const { t } = useTranslation();
  const warning = useRef<HTMLDivElement>(null);
  useEffect(() => warning.current?.focus(), []);
  return (
    <Stack gap="sm" data-testid="once-shown">
      <Alert
        ref={warning}
        tabIndex={-1}
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
        <CopyField key={shown.testId} label={shown.label} value={shown.value} testId={shown.testId} />
      ))}
      <Group justify="flex-end">
        <Button onClick={onDone}>{t('integrations.done')}</Button>
      </Group>
    </Stack>
  );
}
