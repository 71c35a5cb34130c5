import { AppShell, Box, Group, UnstyledButton } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Link, Outlet, useMatches } from 'react-router';
import { Logo } from '@/components/logo';
import { useSessionUser } from '@/lib/session';
import { Footer } from '@/components/footer';
import { UserMenu } from './user-menu';

export interface RouteHandle {
  /** the page renders its own footer (the organization-management page, spec §2) */
  ownFooter?: boolean;
}

/** Logged-in pages: header with the logo and the user dropdown, the page, the footer. */
export function AppLayout() {
  const { data: user } = useSessionUser();
  const matches = useMatches();
  const ownFooter = matches.some((m) => (m.handle as RouteHandle | undefined)?.ownFooter);
  return (
    // modals (spec §9: layer 1100 over the overlay 1000) are only used on logged-in pages, so their
    // code stays out of the login route
    <ModalsProvider modalProps={{ zIndex: 1100, overlayProps: { zIndex: 1000 } }}>
      <AppShell header={{ height: 60 }} padding={0}>
        <AppShell.Header px="md" withBorder>
          <Group h="100%" justify="space-between" wrap="nowrap">
            <UnstyledButton component={Link} to="/">
              <Logo size={30} />
            </UnstyledButton>
            {user && <UserMenu user={user} />}
          </Group>
        </AppShell.Header>
        <AppShell.Main style={{ display: 'flex', flexDirection: 'column', minHeight: '100dvh' }}>
          <Box id="content" style={{ flex: 1 }}>
            <Outlet />
          </Box>
          {!ownFooter && <Footer />}
        </AppShell.Main>
      </AppShell>
    </ModalsProvider>
  );
}
