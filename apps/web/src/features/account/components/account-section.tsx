import type { ReactNode } from 'react';
import { Paper, Text } from '@mantine/core';
import { TitledStack } from '@/components/titled-stack';

/** A titled panel under the profile form (the sessions, the sign-in and security): its heading names the section. */
export function AccountSection({ id, title, intro, children }: { id: string; title: string; intro: string; children: ReactNode }) {
  return (
    <Paper withBorder shadow="sm" p={{ base: 'md', sm: 'xl' }} radius="lg" mt="lg" component="section" aria-labelledby={id}>
      <TitledStack title={title} order={2} size="h3" id={id} gap="md">
        <Text size="sm" c="dimmed">
          {intro}
        </Text>
        {children}
      </TitledStack>
    </Paper>
  );
}
