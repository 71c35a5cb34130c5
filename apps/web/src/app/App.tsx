import { useEffect, useState, type ReactNode } from 'react';
import './login-styles';
import { i18nReady, initI18n } from '@/lib/i18n';
import { PortalRouter } from './router';
import { Toasts } from './toasts';

/**
 * What every page renders in: the toasts (also the pre-render's, src/prerender/render.tsx). Mantine's
 * provider and the query client's come with each view but the login route's (./router.tsx,
 * components/mantine.tsx); the login route's stylesheet carries the theme's variables (./login-styles.ts).
 */
export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <>
      <Toasts />
      {children}
    </>
  );
}

export function App() {
  // a pre-rendered page is hydrated once its translations are set up (main.tsx): it renders at once
  const [ready, setReady] = useState(i18nReady);
  useEffect(() => {
    if (!ready) void initI18n().then(() => setReady(true));
  }, [ready]);
  if (!ready) return null;
  return (
    <AppProviders>
      <PortalRouter />
    </AppProviders>
  );
}
