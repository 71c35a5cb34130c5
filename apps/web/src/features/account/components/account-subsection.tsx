import type { ReactNode } from 'react';
import { TitledStack } from '@/components/titled-stack';

/** A part of a section of the profile (the authenticator app, the passkeys), under its own heading. */
export function AccountSubsection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <TitledStack title={title} order={3} size="h4" gap="xs">
      {children}
    </TitledStack>
  );
}
