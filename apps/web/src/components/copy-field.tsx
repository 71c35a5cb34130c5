import { Button, Code, Group, Stack, Text, VisuallyHidden } from '@mantine/core';
import { useClipboard } from '@mantine/hooks';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { WebAddress } from '@/components/web-address';

/**
 * A value to copy somewhere else (a DNS record, the redirect URI to register at a provider, a secret shown once): its
 * label, the value whole (never cut: a web address wraps after its separators, anything else anywhere), and a Copy
 * button named after the label; `onCopy` hears of each copy.
 */
export function CopyField({ label, value, testId, onCopy }: { label: string; value: string; testId?: string; onCopy?: () => void }) {
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
          style={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere', whiteSpace: 'pre-wrap', fontSize: 'var(--mantine-font-size-sm)' }}
          p={6}
        >
          <WebAddress value={value} />
        </Code>
        <Button
          variant="default"
          size="compact-sm"
          flex="none"
          leftSection={clipboard.copied ? <IconCheck size={14} aria-hidden /> : <IconCopy size={14} aria-hidden />}
          onClick={() => {
            clipboard.copy(value);
            onCopy?.();
          }}
        >
          {clipboard.copied ? t('clipboard.copied') : t('clipboard.copy')}
          <VisuallyHidden>{` ${label}`}</VisuallyHidden>
        </Button>
      </Group>
    </Stack>
  );
}
