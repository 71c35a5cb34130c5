import { Badge } from '@mantine/core';
import type { ReactNode } from 'react';

/** A badge with its whole word in every language (docs/design.md, "Badges"): it never truncates or shrinks. */
export function WholeBadge({
  color,
  textColor,
  variant = 'light',
  children,
}: {
  color: string;
  /** text darker than the light variant's where that falls short of contrast */
  textColor?: string;
  variant?: 'light' | 'filled';
  children: ReactNode;
}) {
  return (
    <Badge
      color={color}
      c={textColor}
      autoContrast
      variant={variant}
      styles={{ root: { flex: 'none', maxWidth: 'none', overflow: 'visible' }, label: { overflow: 'visible', textOverflow: 'clip' } }}
    >
      {children}
    </Badge>
  );
}
