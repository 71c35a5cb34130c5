import { forwardRef } from 'react';
import { TextInput, type TextInputProps } from '@mantine/core';

/**
 * The field of a code from an authenticator app (or a recovery code): the browser may fill it from
 * a text message or a password manager (`one-time-code`), and a code is never longer than 64
 * characters. Used by the app's set-up, the sign-in's second step and the identity check.
 */
export const OneTimeCodeInput = forwardRef<HTMLInputElement, Omit<TextInputProps, 'onChange'> & { onChange: (value: string) => void }>(
  function OneTimeCodeInput({ onChange, ...props }, ref) {
    return <TextInput ref={ref} autoComplete="one-time-code" maxLength={64} onChange={(e) => onChange(e.currentTarget.value)} {...props} />;
  },
);
