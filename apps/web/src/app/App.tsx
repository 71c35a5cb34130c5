import { useEffect, useState } from 'react';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { initI18n } from '@/lib/i18n';
import { queryClient } from '@/lib/query-client';
import { cssVariablesResolver, theme } from './theme';
import { router } from './router';

export function App() {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    void initI18n().then(() => setReady(true));
  }, []);
  if (!ready) return null;
  return (
    <MantineProvider theme={theme} defaultColorScheme="light" cssVariablesResolver={cssVariablesResolver}>
      <QueryClientProvider client={queryClient}>
        {/* Toasts: top-right, 2000 ms, paused on hover, several at once (spec §9) */}
        <Notifications position="top-right" autoClose={2000} limit={5} pauseResetOnHover="notification" zIndex={1200} />
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  );
}
