import { IconLanguage } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { INTERFACE_LANGUAGES, knownInterfaceLanguage, type InterfaceLanguage } from '@partner-portal/contracts';
import { changeLanguage, markLanguageChosen } from '@/lib/i18n';
import { LANGUAGE_NAMES } from './language-names';
import { InputField, NativeSelectChevron, rem } from './plain';

export { visitorChoseLanguage } from '@/lib/i18n';

/**
 * The interface language for visitors who are not signed in (login and invitation pages): all six
 * interface languages, each named in itself. The choice is marked as the visitor's own: an
 * invitation's language does not override it, and a sign-in saves it to the profile
 * (lib/session.ts, applyUserLanguage). Signed-in pages have LanguageChoice in their header.
 * Mantine's `NativeSelect` (size xs, 200 px) as plain elements: it is on the login route
 * (components/plain.tsx).
 */
export function LanguagePicker() {
  const { t, i18n } = useTranslation();
  const current = knownInterfaceLanguage(i18n.language);
  return (
    <InputField
      kind="NativeSelect"
      label={t('interface_language')}
      size="xs"
      style={{ width: rem(200) }}
      leftSection={<IconLanguage size={14} aria-hidden />}
      rightSection={<NativeSelectChevron />}
      field={(props) => (
        <select
          {...props}
          value={current}
          onChange={(e) => {
            markLanguageChosen(true);
            void changeLanguage(e.currentTarget.value as InterfaceLanguage);
          }}
        >
          {INTERFACE_LANGUAGES.map((code) => (
            <option key={code} value={code}>
              {LANGUAGE_NAMES[code]}
            </option>
          ))}
        </select>
      )}
    />
  );
}
