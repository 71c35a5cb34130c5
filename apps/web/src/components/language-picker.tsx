import { NativeSelect } from '@mantine/core';
import { IconLanguage } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { INTERFACE_LANGUAGES, knownInterfaceLanguage, type InterfaceLanguage } from '@partner-portal/contracts';
import { changeLanguage, markLanguageChosen } from '@/lib/i18n';
import { LANGUAGE_NAMES } from './language-names';

export { visitorChoseLanguage } from '@/lib/i18n';

/**
 * The interface language for visitors who are not signed in (login and invitation pages): all six
 * interface languages, each named in itself. The choice is marked as the visitor's own: an
 * invitation's language does not override it, and a sign-in saves it to the profile
 * (lib/session.ts, applyUserLanguage). Signed-in pages have LanguageChoice in their header.
 */
export function LanguagePicker() {
  const { t, i18n } = useTranslation();
  const current = knownInterfaceLanguage(i18n.language);
  return (
    <NativeSelect
      label={t('interface_language')}
      size="xs"
      w={200}
      leftSection={<IconLanguage size={14} aria-hidden />}
      data={INTERFACE_LANGUAGES.map((code) => ({ value: code, label: LANGUAGE_NAMES[code] }))}
      value={current}
      onChange={(e) => {
        markLanguageChosen(true);
        void changeLanguage(e.currentTarget.value as InterfaceLanguage);
      }}
    />
  );
}
