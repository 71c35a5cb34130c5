import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import {
  interfaceLanguageFor,
  knownInterfaceLanguage,
  SESSION_INDICATOR_COOKIE,
  userLanguageFor,
  type InterfaceLanguage,
  type UserInfo,
} from '@partner-portal/contracts';
import { api } from './api';
import { changeLanguage, i18n, markLanguageChosen, visitorChoseLanguage } from './i18n';
import { queryClient, sessionQueryKey } from './query-client';
import { fetchSessionUser } from './session-user';

export { fetchSessionUser } from './session-user';
export { sessionQueryKey } from './query-client';

/**
 * How often the session is checked on routes that need login (docs/product.md, "Limits and constants"). The check reads the
 * session indicator cookie, which the server sets and removes with the session: it costs no
 * request. The server itself is asked at most once a minute, and when the tab regains focus.
 */
export const SESSION_CHECK_INTERVAL_MS = 1000;
export const SESSION_REFRESH_INTERVAL_MS = 60_000;

/** Whether the browser holds the session indicator cookie (no secret: only that a session exists). */
export function sessionIndicatorPresent(): boolean {
  return document.cookie.split(';').some((c) => c.trim().startsWith(`${SESSION_INDICATOR_COOKIE}=`));
}

/** While active, calls onGone (at most once a second) when the session indicator is gone. */
export function useSessionIndicatorWatch(active: boolean, onGone: () => void): void {
  useEffect(() => {
    if (!active) return;
    const timer = window.setInterval(() => {
      if (!sessionIndicatorPresent()) onGone();
    }, SESSION_CHECK_INTERVAL_MS);
    return () => window.clearInterval(timer);
  }, [active, onGone]);
}

export function useSessionUser(options: { watch?: boolean } = {}) {
  return useQuery({
    queryKey: sessionQueryKey,
    queryFn: fetchSessionUser,
    staleTime: SESSION_REFRESH_INTERVAL_MS,
    refetchInterval: options.watch ? SESSION_REFRESH_INTERVAL_MS : false,
    refetchIntervalInBackground: false,
    ...(options.watch ? { refetchOnWindowFocus: 'always' as const } : {}),
  });
}

/** Reload the session user (after login or a profile change) and return it. */
export async function reloadSessionUser(): Promise<UserInfo | null> {
  return queryClient.fetchQuery({ queryKey: sessionQueryKey, queryFn: fetchSessionUser, staleTime: 0 });
}

/**
 * Save a language as the signed-in user's (PUT /api/identity/update-profile, names unchanged) and
 * show it; the session user in the cache holds it at once, so nothing switches back.
 */
export async function saveUserLanguage(user: UserInfo, language: InterfaceLanguage): Promise<void> {
  const languageCode = userLanguageFor(language);
  await changeLanguage(language);
  if (languageCode === user.languageCode) return;
  await api.put('/identity/update-profile', { first_name: user.firstName, last_name: user.lastName, language_code: languageCode });
  queryClient.setQueryData<UserInfo | null>(sessionQueryKey, (current) => (current ? { ...current, languageCode } : current));
}

/**
 * After login (docs/product.md, "Flows and states"): a language the visitor picked on the login page
 * becomes the user's (docs/decisions/012-user-languages.md); otherwise the interface follows the
 * user's saved language.
 */
export async function applyUserLanguage(user: UserInfo | null): Promise<void> {
  if (!user) return;
  const picked = visitorChoseLanguage() ? knownInterfaceLanguage(i18n.language) : null;
  markLanguageChosen(false);
  if (picked) {
    try {
      await saveUserLanguage(user, picked);
      return;
    } catch {
      // not saved (the profile is incomplete, say): the saved language stays
    }
  }
  await changeLanguage(interfaceLanguageFor(user.languageCode));
}

/** After logout: every cached answer is dropped; the interface keeps its language (docs/product.md, "Flows and states"). */
export async function clearSession(): Promise<void> {
  await queryClient.cancelQueries();
  queryClient.clear();
  queryClient.setQueryData(sessionQueryKey, null);
}
