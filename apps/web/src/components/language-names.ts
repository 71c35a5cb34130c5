import type { InterfaceLanguage, UserLanguage } from '@partner-portal/contracts';

/** Each language named in itself, so a reader finds their own whatever the interface shows. */
export const LANGUAGE_NAMES: Record<UserLanguage | InterfaceLanguage, string> = {
  en: 'English',
  'en-GB': 'English',
  nl: 'Nederlands',
  de: 'Deutsch',
  fr: 'Français',
  es: 'Español',
  'pt-BR': 'Português (Brasil)',
};
