import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { z } from 'zod';
import { App } from './app/App';

// The CSP allows no eval: zod must not probe for it (its probe is a CSP violation in the console).
z.config({ jitless: true });

// A URL starting with #/ is rewritten to a normal path (spec §2).
if (window.location.hash.startsWith('#/')) {
  window.history.replaceState(null, '', window.location.hash.slice(1));
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
