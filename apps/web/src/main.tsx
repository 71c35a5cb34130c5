import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
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

// Everything the first page needs starts now, side by side: its views' code, the translations,
// the session and the site settings (docs/performance.md, "The login page on a slow connection").
if (/^\/login\/?$/i.test(window.location.pathname)) {
  void load(SESSION_ANSWER, fetchSessionUser).catch(() => undefined);
  void loadConfiguration();
}
preloadFirstView(window.location.pathname);
void initI18n();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
