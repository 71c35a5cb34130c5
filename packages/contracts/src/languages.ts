/**
 * Languages a user may choose (docs/product.md, "Purpose and users" and "Limits and constants";
 * docs/decisions/012-user-languages.md): the five short codes and 'pt-BR'.
 */
export const USER_LANGUAGES = ['en', 'nl', 'de', 'fr', 'es', 'pt-BR'] as const;
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

/**
 * The user language a language tag names, or null when it names none: the tag's primary
 * language ('nl-BE' is nl, 'en-GB' is en), Portuguese of any region is pt-BR; case and '_' for
 * '-' do not matter.
 */
export function userLanguageOf(tag: string | null | undefined): UserLanguage | null {
  const base = (tag ?? '').trim().toLowerCase().split(/[-_]/)[0] ?? '';
  if (base === 'pt') return 'pt-BR';
  return (USER_LANGUAGES as readonly string[]).includes(base) ? (base as UserLanguage) : null;
}

/** The user language closest to an interface language (or any language tag), else en. */
export function userLanguageFor(code: string | null | undefined): UserLanguage {
  return userLanguageOf(code) ?? DEFAULT_USER_LANGUAGE;
}

/** The interface language for a language tag such as the browser's ('nl-NL', 'pt', 'en-US'), or null when none fits. */
export function interfaceLanguageOf(tag: string | null | undefined): InterfaceLanguage | null {
  const language = userLanguageOf(tag);
  return language ? interfaceLanguageFor(language) : null;
}
