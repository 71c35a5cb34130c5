import { useEffect, useState, type ReactNode } from 'react';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import './login-styles';
import { i18nReady, initI18n } from '@/lib/i18n';
import { queryClient } from '@/lib/query-client';
import { cssVariablesResolver, theme } from './theme';
import { PortalRouter } from './router';
import { Toasts } from './toasts';

/** What every page renders in: the theme, the query cache and the toasts (also the pre-render's, src/prerender/render.tsx). */
export function AppProviders({ children }: { children: ReactNode }) {
  return (
    <MantineProvider theme={theme} defaultColorScheme="light" cssVariablesResolver={cssVariablesResolver}>
      <QueryClientProvider client={queryClient}>
        <Toasts />
        {children}
      </QueryClientProvider>
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
