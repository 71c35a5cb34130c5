import { StrictMode } from 'react';
import { prerender } from 'react-dom/static';
import { StaticRouter } from 'react-router';
import { initReactI18next } from 'react-i18next';
import { INTERFACE_LANGUAGES, type InterfaceLanguage } from '@partner-portal/contracts';
import { AppProviders } from '@/app/App';
import { PortalRoutes } from '@/app/router';
import { titleKeyFor } from '@/app/page-title';
import { I18N_OPTIONS, i18n } from '@/lib/i18n';

/** The main translations of every language, at hand (a feature's own load as its view renders). */
const messages = import.meta.glob<{ default: Record<string, unknown> }>('../locales/*.json', { eager: true });

/** Sets up i18next as the browser does, with every language's main translations. */
export async function setUpTranslations(): Promise<void> {
  const resources = Object.fromEntries(
    INTERFACE_LANGUAGES.map((language) => {
      const file = messages[`../locales/${language}.json`];
      if (!file) throw new Error(`no src/locales/${language}.json`);
      return [language, { translation: file.default }];
    }),
  );
  await i18n.use(initReactI18next).init({ ...I18N_OPTIONS, resources, lng: 'en-GB' });
}

/** What a page's head says in a language. */
export function headOf(url: string, language: InterfaceLanguage): { title: string; description: string } {
  const t = i18n.getFixedT(language);
  const pathname = new URL(url, 'http://localhost').pathname;
  return { title: `${t(titleKeyFor(pathname))} · ${t('product_name')}`, description: t('login_subtitle') };
}

/**
 * The HTML of the application at `url` in `language`, as its first render in the browser makes it
 * (main.tsx hydrates it): the same providers and routes, in React's static rendering, which waits
 * for every lazy view and translation. Each part must be written in its place: a part written
 * apart, hidden, with React's inline script to swap it in, would stay hidden (the
 * Content-Security-Policy refuses the script).
 */
export async function renderPage(url: string, language: InterfaceLanguage): Promise<string> {
  await i18n.changeLanguage(language);
  const errors: unknown[] = [];
  const { prelude } = await prerender(
    <StrictMode>
      <AppProviders>
        <StaticRouter location={url}>
          <PortalRoutes />
        </StaticRouter>
      </AppProviders>
    </StrictMode>,
    // every part in its place, however large (React writes large parts apart otherwise)
    { onError: (error) => void errors.push(error), progressiveChunkSize: Number.POSITIVE_INFINITY },
  );
  const html = await new Response(prelude).text();
  // a page that failed to render in part would be replaced in the browser: the build fails instead
  if (errors.length) throw new AggregateError(errors, `the pre-render of ${url} (${language}) failed`);
  if (/<script|<template/i.test(html)) throw new Error(`the pre-render of ${url} (${language}) still waits for a part of the page`);
  return html;
}
