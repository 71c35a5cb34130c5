import { NativeSelect } from '@mantine/core';
import { IconLanguage } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { INTERFACE_LANGUAGES, knownInterfaceLanguage, type InterfaceLanguage, type UserInfo } from '@partner-portal/contracts';
import { saveUserLanguage } from '@/lib/session';
import { LANGUAGE_NAMES } from './language-names';
import { notifyError } from './notify';

/**
 * The signed-in header's language picker: the six interface languages, each named in itself; a
 * choice is shown at once and saved as the user's language (docs/decisions/012-user-languages.md).
 */
export function LanguageChoice({ user }: { user: UserInfo }) {
  const { t, i18n } = useTranslation();
  return (
    <NativeSelect
      aria-label={t('interface_language')}
      size="xs"
      w={{ base: 120, sm: 190 }}
      leftSection={<IconLanguage size={14} aria-hidden />}
      data={INTERFACE_LANGUAGES.map((code) => ({ value: code, label: LANGUAGE_NAMES[code] }))}
      value={knownInterfaceLanguage(i18n.language)}
      onChange={(e) => {
        saveUserLanguage(user, e.currentTarget.value as InterfaceLanguage).catch(notifyError);
      }}
    />
  );
}
