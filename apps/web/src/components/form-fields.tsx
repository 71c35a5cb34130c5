import {
  NativeSelect,
  PasswordInput,
  TextInput,
  type NativeSelectProps,
  type PasswordInputProps,
  type TextInputProps,
} from '@mantine/core';
import { interfaceLanguageFor, USER_LANGUAGES } from '@partner-portal/contracts';
import { changeLanguage } from '@/lib/i18n';
import { LANGUAGE_NAMES } from './language-names';

/**
 * The fields the portal's forms share: a required text (names: at most 100 characters), a
 * required password (at most 128) and the preferred language, which switches the interface
 * language as soon as it is picked (docs/product.md, "Validation").
 */
export function RequiredText(props: TextInputProps & { ref?: TextInputProps['ref'] }) {
  return <TextInput required maxLength={100} {...props} />;
}

export function RequiredPassword(props: PasswordInputProps & { ref?: PasswordInputProps['ref'] }) {
  return <PasswordInput required maxLength={128} {...props} />;
}

export function LanguageSelect({
  value,
  onChange,
  ...props
}: Omit<NativeSelectProps, 'data' | 'value' | 'onChange'> & {
  ref?: NativeSelectProps['ref'];
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <NativeSelect
      required
      data={USER_LANGUAGES.map((code) => ({ value: code, label: LANGUAGE_NAMES[code] }))}
      {...props}
      value={value}
      onChange={(event) => {
        const language = event.currentTarget.value;
        onChange(language);
        void changeLanguage(interfaceLanguageFor(language));
      }}
    />
  );
}
