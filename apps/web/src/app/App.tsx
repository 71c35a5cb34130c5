import { useEffect, useState } from 'react';
import { MantineProvider } from '@mantine/core';
import './login-styles';
import { initI18n } from '@/lib/i18n';
import { cssVariablesResolver, theme } from './theme';
import { PortalRouter } from './router';
import { Toasts } from './toasts';

export function App() {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    void initI18n().then(() => setReady(true));
  }, []);
  if (!ready) return null;
  return (
    <MantineProvider theme={theme} defaultColorScheme="light" cssVariablesResolver={cssVariablesResolver}>
      {/* the query client's provider comes with each view but the login route's (./router.tsx) */}
      <Toasts />
      <PortalRouter />
    </MantineProvider>
  );
}
