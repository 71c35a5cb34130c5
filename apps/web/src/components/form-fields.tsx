import { PasswordInput, TextInput, type PasswordInputProps, type TextInputProps } from '@mantine/core';

/**
 * The fields the portal's forms share: a required text (names: at most 100 characters) and a
 * required password (at most 128); the preferred language is in language-select.tsx.
 */
export function RequiredText(props: TextInputProps & { ref?: TextInputProps['ref'] }) {
  return <TextInput required maxLength={100} {...props} />;
}

export function RequiredPassword(props: PasswordInputProps & { ref?: PasswordInputProps['ref'] }) {
  return <PasswordInput required maxLength={128} {...props} />;
}
