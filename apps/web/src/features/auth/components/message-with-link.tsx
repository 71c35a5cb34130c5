import type { ComponentType } from 'react';
import { Alert, Text } from '@mantine/core';
import { TextLink } from '@/components/text-link';
import { TitledStack } from '@/components/titled-stack';

/**
 * A page of the login layout that only tells something: its title, what happened (an alert),
 * what to do now, and a link there (the reset e-mail sent, a reset link that has expired).
 */
export function MessageWithLink({
  title,
  alert: { color, Icon, text },
  next,
}: {
  title: string;
  alert: { color: string; Icon: ComponentType<{ 'aria-hidden'?: boolean }>; text: string };
  /** what to do now, and the link there with its label */
  next: { text: string; to: string; link: string };
}) {
  return (
    <TitledStack title={title} order={1} size="h2" gap="md">
      <Alert color={color} variant="light" icon={<Icon aria-hidden />}>
        {text}
      </Alert>
      <Text size="sm">{next.text}</Text>
      <TextLink to={next.to}>{next.link}</TextLink>
    </TitledStack>
  );
}
