import type { ReactNode } from 'react';
import { Stack, Title, type MantineSpacing, type TitleOrder } from '@mantine/core';

/** A heading and what it heads, stacked: a page card's title, a section's, a part of a section's. */
export function TitledStack({
  title,
  order,
  size,
  id,
  gap,
  children,
}: {
  title: string;
  order: TitleOrder;
  size: 'h2' | 'h3' | 'h4';
  id?: string;
  gap: MantineSpacing;
  children: ReactNode;
}) {
  return (
    <Stack gap={gap}>
      <Title order={order} size={size} id={id}>
        {title}
      </Title>
      {children}
    </Stack>
  );
}
