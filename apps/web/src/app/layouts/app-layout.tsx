import { useEffect } from 'react';
import { AppShell, Box, Group, UnstyledButton } from '@mantine/core';
import { Link, useMatch } from 'react-router';
import { interfaceLanguageFor } from '@partner-portal/contracts';
import { LanguageChoice } from '@/components/language-choice';
import { Logo } from '@/components/logo';
import { changeLanguage, i18n, openedWithLinkLanguage } from '@/lib/i18n';
import { useSessionUser } from '@/lib/session';
import { Footer } from '@/components/footer';
import { RoutedView } from '../routed-view';
import { UserMenu } from './user-menu';
import { SkipLink } from './skip-link';

/** Logged-in pages: header with the logo, the language picker and the user dropdown, the page, the footer. */
export function AppLayout() {
  const { data: user } = useSessionUser();
  // the interface speaks the user's saved language, unless the page's link names one
  // (docs/decisions/012-user-languages.md); the profile page shows another one until saved
  const savedLanguage = user ? interfaceLanguageFor(user.languageCode) : null;
  useEffect(() => {
    if (savedLanguage && savedLanguage !== i18n.language && !openedWithLinkLanguage()) void changeLanguage(savedLanguage);
  }, [savedLanguage]);
  // the organization-management page renders its own footer (docs/product.md, "Screens")
  const ownFooter = useMatch('/manage-organization/:organizationId') !== null;
  return (
    // no modals provider: each dialog is a Modal of its own, loaded when it first opens
    // (features/organizations/components/modal-frame.tsx)
    <>
      <SkipLink />
      <AppShell header={{ height: 60 }} padding={0}>
        <AppShell.Header px="md" withBorder>
          <Group h="100%" justify="space-between" wrap="nowrap">
            {/* below 576 px the mark alone, so the language picker and the user menu fit at 390 px */}
            <UnstyledButton component={Link} to="/" aria-label="Partner Portal">
              <Box visibleFrom="xs">
                <Logo size={30} />
              </Box>
              <Box hiddenFrom="xs">
                <Logo size={30} withText={false} />
              </Box>
            </UnstyledButton>
            {user && (
              <Group gap="xs" wrap="nowrap">
                <LanguageChoice user={user} />
                <UserMenu user={user} />
              </Group>
            )}
          </Group>
        </AppShell.Header>
        <AppShell.Main id="main" tabIndex={-1} style={{ display: 'flex', flexDirection: 'column', minHeight: '100dvh' }}>
          <Box id="content" style={{ flex: 1 }}>
            <RoutedView />
          </Box>
          {!ownFooter && <Footer />}
        </AppShell.Main>
      </AppShell>
    </>
  );
}
