import { NativeSelect, type NativeSelectProps } from '@mantine/core';
import { interfaceLanguageFor, USER_LANGUAGES } from '@partner-portal/contracts';
import { changeLanguage } from '@/lib/i18n';
import { LANGUAGE_NAMES } from './language-names';

/** The preferred language (profile, registration): picking one switches the interface language at once. */
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
