import { Alert, List } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';

/** Several form errors shown together (docs/product.md, "Validation": both errors may show at once). */
export function FormErrors({ messages, title }: { messages: string[]; title?: string }) {
  if (messages.length === 0) return null;
  return (
    <Alert color="red" variant="light" icon={<IconAlertCircle aria-hidden />} title={title} role="alert">
      {messages.length === 1 ? (
        messages[0]
      ) : (
        <List size="sm" spacing={2}>
          {messages.map((m) => (
            <List.Item key={m}>{m}</List.Item>
          ))}
        </List>
      )}
    </Alert>
  );
}
