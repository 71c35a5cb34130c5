import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';

/** Each route's own document title (docs/design.md, focus and titles). */
const TITLES: [RegExp, string][] = [
  [/^\/$/, 'title_home'],
  [/^\/login$/, 'title_login'],
  [/^\/loggedIn$/, 'title_login'],
  [/^\/logout$/, 'title_logout'],
  [/^\/forgot-password$/, 'title_forgot_password'],
  [/^\/forgot-password-confirmation$/, 'title_forgot_password'],
  [/^\/reset-password$/, 'title_reset_password'],
  [/^\/request-access$/, 'title_request_access'],
  [/^\/error$/, 'title_error'],
  [/^\/invitation(-external-identity)?\//, 'title_invitation'],
  [/^\/profile$/, 'title_profile'],
  [/^\/forbidden$/, 'title_forbidden'],
  [/^\/change-password$/, 'title_change_password'],
  [/^\/manage-organization\//, 'title_user_management'],
  [/^\/device$/, 'title_device'],
];

export function titleKeyFor(pathname: string): string {
  return TITLES.find(([pattern]) => pattern.test(pathname))?.[1] ?? 'title_not_found';
}

/** The first path segment: moving within one screen (e.g. between organizations) is not a new page. */
const screenOf = (pathname: string) => pathname.split('/')[1] ?? '';

/**
 * Sets the document title on every route and, after a navigation to another screen, moves focus to
 * that screen's main heading (so a keyboard or screen-reader user starts at the new content). A
 * field the new page focused itself (e.g. the login page's e-mail field) keeps its focus.
 */
export function PageTitleAndFocus() {
  const { t, i18n } = useTranslation();
  const { pathname } = useLocation();
  const previous = useRef<string | null>(null);

  useEffect(() => {
    document.title = `${t(titleKeyFor(pathname))} · ${t('product_name')}`;
  }, [pathname, t, i18n.language]);

  useEffect(() => {
    const before = previous.current;
    previous.current = pathname;
    if (before === null || screenOf(before) === screenOf(pathname)) return;
    let frame = 0;
    const started = performance.now();
    const focusHeading = () => {
      const active = document.activeElement;
      const main = document.getElementById('main');
      if (main && active && main.contains(active) && active.matches('input, textarea, select')) return;
      const heading = main?.querySelector<HTMLElement>('h1');
      if (heading) {
        if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
        heading.focus();
        return;
      }
      if (performance.now() - started < 3000) frame = requestAnimationFrame(focusHeading);
    };
    frame = requestAnimationFrame(focusHeading);
    return () => cancelAnimationFrame(frame);
  }, [pathname]);

  return null;
}
