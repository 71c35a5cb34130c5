import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { config as zodConfig } from 'zod/v4/core';
import { App } from './app/App';

// The CSP allows no eval: zod must not probe for it (its probe is a CSP violation in the console).
zodConfig({ jitless: true });

// A URL starting with #/ is rewritten to a normal path (spec §2).
if (window.location.hash.startsWith('#/')) {
  window.history.replaceState(null, '', window.location.hash.slice(1));
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
