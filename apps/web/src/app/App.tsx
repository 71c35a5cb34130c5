import { useEffect, useState, type ReactNode } from 'react';
import { MantineProvider } from '@mantine/core';
import './login-styles';
import { i18nReady, initI18n } from '@/lib/i18n';
import { cssVariablesResolver, theme } from './theme';
import { PortalRouter } from './router';
import { Toasts } from './toasts';

/** What every page renders in: the theme, the query cache and the toasts (also the pre-render's, src/prerender/render.tsx). */
export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <MantineProvider theme={theme} defaultColorScheme="light" cssVariablesResolver={cssVariablesResolver}>
      {/* the query client's provider comes with each view but the login route's (./router.tsx) */}
      <Toasts />
      {children}
    </MantineProvider>
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
