import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import {
  DEFAULT_INTERFACE_LANGUAGE,
  INTERFACE_LANGUAGE_COOKIE,
  INTERFACE_LANGUAGES,
  interfaceLanguageOf,
  knownInterfaceLanguage,
  type InterfaceLanguage,
} from '@partner-portal/contracts';
import enGB from '../locales/en-GB.json';

/**
 * The six interface languages (docs/product.md, "Purpose and users"). en-GB is bundled as the default and fallback; the others
 * are loaded on demand so the login page stays small.
 */
const loaders: Record<Exclude<InterfaceLanguage, 'en-GB'>, () => Promise<{ default: Record<string, unknown> }>> = {
  nl: () => import('../locales/nl.json'),
  de: () => import('../locales/de.json'),
  fr: () => import('../locales/fr.json'),
  es: () => import('../locales/es.json'),
  'pt-BR': () => import('../locales/pt-BR.json'),
};

const STORAGE_KEY = 'pp.language';
const CHOSEN_KEY = 'pp.language.chosen';

/**
 * Keep a language as this device's choice: in local storage for the app, and in a cookie for the
 * server, which sends the pre-rendered pages in it (docs/decisions/021-pre-rendered-public-pages.md).
 */
function rememberLanguage(language: InterfaceLanguage): void {
  localStorage.setItem(STORAGE_KEY, language);
  document.cookie = `${INTERFACE_LANGUAGE_COOKIE}=${language}; path=/; max-age=31536000; samesite=lax`;
}

/** The language picked earlier on this device, if any. */
export function storedLanguage(): InterfaceLanguage | null {
  const value = localStorage.getItem(STORAGE_KEY);
  return (INTERFACE_LANGUAGES as readonly string[]).includes(value ?? '') ? (value as InterfaceLanguage) : null;
}

/** Whether the visitor picked a language themselves in this tab (a link's or an invitation's language does not override it). */
export function visitorChoseLanguage(): boolean {
  return sessionStorage.getItem(CHOSEN_KEY) === '1';
}

/** Mark (or, once saved to the profile, unmark) the language shown as picked by the visitor in this tab. */
export function markLanguageChosen(chosen: boolean): void {
  if (chosen) sessionStorage.setItem(CHOSEN_KEY, '1');
  else sessionStorage.removeItem(CHOSEN_KEY);
}

/** The language of the link the app was opened with (`lang`, which reset and invitation links carry), if any. */
let linkLanguage: InterfaceLanguage | null = null;

/** Whether the app was opened with a link that names its language (then it wins over the user's saved one). */
export function openedWithLinkLanguage(): boolean {
  return linkLanguage !== null;
}

/** The first of the browser's languages (Accept-Language) the interface speaks, if any. */
function browserLanguage(): InterfaceLanguage | null {
  for (const tag of navigator.languages.length ? navigator.languages : [navigator.language]) {
    const language = interfaceLanguageOf(tag);
    if (language) return language;
  }
  return null;
}

/**
 * The language the app starts in (docs/decisions/012-user-languages.md): the link's, the one picked
 * earlier on this device, the browser's, en-GB. A signed-in user's saved language follows once the
 * session is known (app/layouts/app-layout.tsx).
 */
function startLanguage(): { language: InterfaceLanguage; remember: boolean } {
  linkLanguage = visitorChoseLanguage() ? null : interfaceLanguageOf(new URLSearchParams(window.location.search).get('lang'));
  if (linkLanguage) return { language: linkLanguage, remember: false };
  const stored = storedLanguage();
  if (stored) return { language: stored, remember: true };
  return { language: browserLanguage() ?? DEFAULT_INTERFACE_LANGUAGE, remember: false };
}

/** Languages whose main bundle is loaded (a feature's bundle alone does not count). */
const loadedMain = new Set<InterfaceLanguage>(['en-GB']);
/** The features' loaders (registerFeatureLocales): a switch of language waits for all of them. */
const featureLoaders = new Set<(language: InterfaceLanguage) => Promise<void>>();
/** The language being switched to, while its translations load. */
let switchingTo: InterfaceLanguage | null = null;

/**
 * Switch the interface once every translation it needs is at hand: the main bundle and the
 * bundle of every feature shown so far. react-i18next renders again at the switch, not when a
 * bundle is added later, so a switch before a feature's bundle left that feature in English.
 */
export async function changeLanguage(language: InterfaceLanguage, options: { remember?: boolean } = {}): Promise<void> {
  switchingTo = language;
  try {
    if (!loadedMain.has(language)) {
      const resources = await loaders[language as Exclude<InterfaceLanguage, 'en-GB'>]();
      i18n.addResourceBundle(language, 'translation', resources.default, true, true);
      loadedMain.add(language);
    }
    // taken after the main bundle: a feature shown meanwhile is included
    await Promise.allSettled([...featureLoaders].map((load) => load(language)));
  } finally {
    if (switchingTo === language) switchingTo = null;
  }
  // a language from a link or the browser is shown, not kept as this device's choice
  if (options.remember !== false) rememberLanguage(language);
  document.documentElement.lang = language;
  await i18n.changeLanguage(language);
}

/** i18next's settings, in the browser and in the pre-render (src/prerender/render.tsx) alike. */
export const I18N_OPTIONS = {
  fallbackLng: DEFAULT_INTERFACE_LANGUAGE,
  supportedLngs: [...INTERFACE_LANGUAGES],
  interpolation: { escapeValue: false },
  returnNull: false,
} as const;

let initialized: Promise<typeof i18n> | undefined;

/** The language the app would start in, kept while a pre-rendered page hydrates in the page's own. */
let pendingStart: { language: InterfaceLanguage; remember: boolean } | null = null;
let ready = false;

/** Whether the translations are set up (the first render may go ahead). */
export function i18nReady(): boolean {
  return ready;
}

/**
 * Sets up the translations once (the entry starts it before the first render). A pre-rendered
 * page (`hydrating`: the language it was sent in) is hydrated in its own language, so that the
 * first render equals the page; `followStartLanguage` switches to the visitor's afterwards.
 */
export function initI18n(options: { hydrating?: InterfaceLanguage } = {}): Promise<typeof i18n> {
  return (initialized ??= setUp(options.hydrating).then((value) => {
    ready = true;
    return value;
  }));
}

/** After a pre-rendered page has hydrated: show the language the app would have started in, if it is another. */
export async function followStartLanguage(): Promise<void> {
  const start = pendingStart;
  pendingStart = null;
  if (start && start.language !== knownInterfaceLanguage(i18n.language)) await changeLanguage(start.language, { remember: start.remember });
}

async function setUp(hydrating: InterfaceLanguage | undefined): Promise<typeof i18n> {
  await i18n
    .use(initReactI18next)
    .init({ ...I18N_OPTIONS, resources: { 'en-GB': { translation: enGB } }, lng: DEFAULT_INTERFACE_LANGUAGE });
  const start = startLanguage();
  // a device that chose its language before the cookie existed tells the server now
  if (start.remember) rememberLanguage(start.language);
  const first = hydrating ?? start.language;
  if (hydrating && hydrating !== start.language) pendingStart = start;
  if (first !== DEFAULT_INTERFACE_LANGUAGE) await changeLanguage(first, { remember: false });
  return i18n;
}

export { i18n };

/**
 * A feature's own translations (e.g. features/organizations/locales/<language>.json), loaded with
 * the feature's code and added to the one 'translation' namespace. Every file has the same keys in
 * all six languages.
 */
export type LocaleLoaders = Record<InterfaceLanguage, () => Promise<{ default: Record<string, unknown> }>>;

export async function registerFeatureLocales(loaders: LocaleLoaders): Promise<void> {
  const loaded = new Map<InterfaceLanguage, Promise<void>>();
  const load = (language: InterfaceLanguage): Promise<void> => {
    let done = loaded.get(language);
    if (!done) {
      done = loaders[language]().then((resources) => {
        i18n.addResourceBundle(language, 'translation', resources.default, true, false);
      });
      // a failed download is tried again at the next switch
      done.catch(() => loaded.delete(language));
      loaded.set(language, done);
    }
    return done;
  };
  featureLoaders.add(load);
  const wanted = new Set<InterfaceLanguage>(['en-GB', (i18n.language as InterfaceLanguage) ?? 'en-GB']);
  if (switchingTo) wanted.add(switchingTo);
  await Promise.all([...wanted].filter((l) => (INTERFACE_LANGUAGES as readonly string[]).includes(l)).map(load));
}

/**
 * A feature's translations as one memoised loader: `files` is what
 * `import.meta.glob('../locales/*.json')` gives in the feature (one file per interface language).
 * English and the interface language load first, then each language switched to; with
 * `allLanguages`, every language loads at once (pages whose visitors switch language on them).
 */
export function featureLocales(
  files: Record<string, () => Promise<unknown>>,
  options: { allLanguages?: boolean } = {},
): () => Promise<void> {
  const loaders = Object.fromEntries(
    INTERFACE_LANGUAGES.map((language) => {
      const file = Object.entries(files).find(([path]) => path.endsWith(`/${language}.json`));
      if (!file) throw new Error(`a feature has no ${language}.json`);
      return [language, file[1] as () => Promise<{ default: Record<string, unknown> }>];
    }),
  ) as LocaleLoaders;
  let ready: Promise<void> | null = null;
  return () => {
    ready ??= registerFeatureLocales(loaders).then(async () => {
      if (!options.allLanguages) return;
      await Promise.all(
        INTERFACE_LANGUAGES.map(async (language) => {
          const resources = await loaders[language]();
          i18n.addResourceBundle(language, 'translation', resources.default, true, false);
        }),
      );
    });
    return ready;
  };
}
