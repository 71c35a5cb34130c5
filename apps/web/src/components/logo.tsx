import { Group, Text } from '@mantine/core';

/** The portal's logo: the mark plus the product name. */
export function Logo({ size = 32, withText = true, inverted = false }: { size?: number; withText?: boolean; inverted?: boolean }) {
  return (
    <Group gap={10} wrap="nowrap">
      <img src="/logo.svg" width={size} height={size} alt="" aria-hidden="true" />
      {withText && (
        <Text
          component="span"
          fw={700}
          fz={size * 0.6}
          c={inverted ? 'white' : 'brand.9'}
          style={{ letterSpacing: '-0.01em', whiteSpace: 'nowrap' }}
        >
          Partner Portal
        </Text>
      )}
    </Group>
  );
}
