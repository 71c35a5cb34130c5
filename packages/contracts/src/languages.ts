/** Languages a user may choose (docs/product.md, "Purpose and users" and "Limits and constants"). */
export const USER_LANGUAGES = ['en', 'nl', 'de', 'fr', 'es'] as const;
export type UserLanguage = (typeof USER_LANGUAGES)[number];

/** Interface languages of the web app; en-GB is default and fallback (docs/product.md, "Purpose and users"). */
export const INTERFACE_LANGUAGES = ['en-GB', 'nl', 'de', 'fr', 'es', 'pt-BR'] as const;
export type InterfaceLanguage = (typeof INTERFACE_LANGUAGES)[number];
export const DEFAULT_INTERFACE_LANGUAGE: InterfaceLanguage = 'en-GB';
export const DEFAULT_USER_LANGUAGE: UserLanguage = 'en';

/** The value when it is an interface language, else the default one. */
export function knownInterfaceLanguage(value: string | null | undefined): InterfaceLanguage {
  return (INTERFACE_LANGUAGES as readonly string[]).includes(value ?? '') ? (value as InterfaceLanguage) : DEFAULT_INTERFACE_LANGUAGE;
}

/** The interface language that shows a user's language. */
export function interfaceLanguageFor(code: string | null | undefined): InterfaceLanguage {
  switch (code) {
    case 'nl':
    case 'de':
    case 'fr':
    case 'es':
      return code;
    case 'pt-BR':
      return 'pt-BR';
    default:
      return DEFAULT_INTERFACE_LANGUAGE;
  }
}

/** The user language closest to an interface language (pt-BR has no user language: en). */
export function userLanguageFor(code: string | null | undefined): UserLanguage {
  const base = (code ?? '').slice(0, 2).toLowerCase();
  return (USER_LANGUAGES as readonly string[]).includes(base) ? (base as UserLanguage) : DEFAULT_USER_LANGUAGE;
}
