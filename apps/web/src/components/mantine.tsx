import { createContext, useContext, type ComponentType, type ReactNode } from 'react';
import { MantineProvider } from '@mantine/core';
import { cssVariablesResolver, theme } from './theme';

/** Whether a portal's Mantine provider is already above: a view inside another (a page in its layout) shares it. */
const Inside = createContext(false);

/**
 * Mantine's provider with the portal's theme, for the parts of the portal that render Mantine's
 * components. The login route renders without it (plain elements with Mantine's classes and the
 * theme's variables from the stylesheet, `app/login-styles.ts`), so the provider loads with the first
 * view or step that needs it (docs/decisions/022-login-and-manage-bundles.md, third round): every
 * view but the login page's (`app/router.tsx`), the login page's later steps, and the toasts.
 */
export function PortalMantine({ children }: { children: ReactNode }) {
  if (useContext(Inside)) return children;
  return (
    <MantineProvider theme={theme} defaultColorScheme="light" cssVariablesResolver={cssVariablesResolver}>
      <Inside.Provider value={true}>{children}</Inside.Provider>
    </MantineProvider>
  );
}

/** A component inside the portal's Mantine provider (or the one above it). */
export function withMantine<P extends object>(View: ComponentType<P>): ComponentType<P> {
  function WithMantine(props: P) {
    return (
      <PortalMantine>
        <View {...props} />
      </PortalMantine>
    );
  }
  WithMantine.displayName = `WithMantine(${View.displayName ?? View.name})`;
  return WithMantine;
}
