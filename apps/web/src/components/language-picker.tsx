import { NativeSelect } from '@mantine/core';
import { IconLanguage } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { INTERFACE_LANGUAGES, knownInterfaceLanguage, type InterfaceLanguage } from '@partner-portal/contracts';
import { changeLanguage } from '@/lib/i18n';
import { LANGUAGE_NAMES } from './language-names';

const CHOSEN_KEY = 'pp.language.chosen';

/** Whether the visitor picked a language themselves in this tab (then an invitation's language does not override it). */
export function visitorChoseLanguage(): boolean {
  return sessionStorage.getItem(CHOSEN_KEY) === '1';
}

/**
 * The interface language for visitors who are not signed in (login and invitation pages): all six
 * interface languages, each named in itself. Signed-in users' interface follows their profile.
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
        sessionStorage.setItem(CHOSEN_KEY, '1');
        void changeLanguage(e.currentTarget.value as InterfaceLanguage);
      }}
    />
  );
}
