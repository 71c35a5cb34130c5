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

/**
 * The cookie that carries the interface language a visitor picked on this device (the web app
 * writes it beside its local storage, apps/web/src/lib/i18n.ts), so that the server can send the
 * pre-rendered pages in it (apps/server/src/modules/web/prerendered.ts).
 */
export const INTERFACE_LANGUAGE_COOKIE = 'pp_language';

/**
 * The interface language that best serves an Accept-Language header (RFC 9110, 12.5.4): the
 * languages in the order of their weights (the header's order among equal weights), the first one
 * the interface speaks; null when none (a weight of 0 refuses a language).
 */
export function interfaceLanguageOfAcceptLanguage(header: string | null | undefined): InterfaceLanguage | null {
  const ranges = (header ?? '')
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q\s*=(.*)$/i.exec(p)?.[1]).find((v) => v !== undefined);
      const weight = q === undefined ? 1 : Number(q.trim() || NaN);
      return { tag: tag.trim(), weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((r) => r.tag && r.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  for (const { tag } of ranges) {
    const language = interfaceLanguageOf(tag);
    if (language) return language;
  }
  return null;
}
