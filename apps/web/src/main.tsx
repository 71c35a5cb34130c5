import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { knownInterfaceLanguage } from '@partner-portal/contracts';
import { App } from './app/App';
import { preloadFirstView } from './app/router';
import { initI18n } from './lib/i18n';
import { loadConfiguration } from './lib/config';
import { load } from './lib/answers';
import { fetchSessionUser, SESSION_ANSWER } from './lib/session-user';

// A URL starting with #/ is rewritten to a normal path (docs/product.md, "Screens").
if (window.location.hash.startsWith('#/')) {
  window.history.replaceState(null, '', window.location.hash.slice(1));
}

const root = document.getElementById('root')!;
// the server sent this page pre-rendered, in this language (docs/decisions/021-pre-rendered-public-pages.md)
const prerendered = root.dataset.prerendered;

const firstView = preloadFirstView(window.location.pathname);
if (prerendered) {
  // Hydrated in the language it was sent in, with nothing in the query cache: the first render
  // must equal the page (the session and the site settings are asked for as it mounts). The
  // language the visitor's device would have started in follows once it has (app/routed-view.tsx).
  // The page's view is at hand first: a part of the page still waiting for its code when an answer
  // (the site settings) updates the layout would be thrown away and rendered again, typing and all.
  const language = knownInterfaceLanguage(prerendered);
  void Promise.all([initI18n({ hydrating: language }), firstView]).then(() => {
    hydrateRoot(
      root,
      <StrictMode>
        <App />
      </StrictMode>,
    );
  });
} else {
  // Everything the first page needs starts now, side by side: its views' code, the translations,
  // the session and the site settings (docs/performance.md, "The login page on a slow connection").
  if (/^\/login\/?$/i.test(window.location.pathname)) {
    void load(SESSION_ANSWER, fetchSessionUser).catch(() => undefined);
    void loadConfiguration();
  }
  void initI18n();
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
