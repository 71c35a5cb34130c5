import { Button, Code, Group, Stack, Text, VisuallyHidden } from '@mantine/core';
import { useClipboard } from '@mantine/hooks';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

/** A value the IT person copies into their DNS or identity provider: its label, the value whole, and a Copy button named after the label. */
export function CopyValue({ label, value, testId }: { label: string; value: string; testId?: string }) {
  const { t } = useTranslation();
  const clipboard = useClipboard({ timeout: 2000 });
  const labelId = useId();
  return (
    <Stack gap={2}>
      <Text size="xs" fw={600} c="gray.8" id={labelId}>
        {label}
      </Text>
      <Group gap="xs" wrap="nowrap" align="flex-start">
        <Code
          aria-labelledby={labelId}
          data-testid={testId}
          style={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}
          p={6}
        >
          {value}
        </Code>
        <Button
          variant="default"
          size="compact-sm"
          flex="none"
          leftSection={clipboard.copied ? <IconCheck size={14} aria-hidden /> : <IconCopy size={14} aria-hidden />}
          onClick={() => clipboard.copy(value)}
        >
          {clipboard.copied ? t('setup.copied') : t('setup.copy')}
          <VisuallyHidden>{` ${label}`}</VisuallyHidden>
        </Button>
      </Group>
    </Stack>
  );
}
