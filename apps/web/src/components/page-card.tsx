import type { ReactNode } from 'react';
import { Container, Paper } from '@mantine/core';
import { TitledStack } from './titled-stack';

/** A page of the signed-in portal that is one card with a form (profile, change password); `after` follows the card. */
export function PageCard({ size, title, children, after }: { size: number; title: string; children: ReactNode; after?: ReactNode }) {
  return (
    <Container size={size} py="xl">
      <Paper withBorder shadow="sm" p={{ base: 'md', sm: 'xl' }} radius="lg">
        <TitledStack title={title} order={1} size="h2" gap="md">
          {children}
        </TitledStack>
      </Paper>
      {after}
    </Container>
  );
}
