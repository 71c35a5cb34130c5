import { Text } from '@mantine/core';

/** One labelled detail of an item ("Client ID: sa.…"), wrapped anywhere rather than wider than the screen. */
export function Detail({ label, mono = false, children }: { label: string; mono?: boolean; children: string }) {
  return (
    <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
      <Text span size="sm" c="gray.7">
        {label}:
      </Text>{' '}
      <Text span size="sm" ff={mono ? 'monospace' : undefined}>
        {children}
      </Text>
    </Text>
  );
}
