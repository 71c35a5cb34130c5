import { useTranslation } from 'react-i18next';
import { Suspense, useEffect } from 'react';
import { Box, Group, UnstyledButton } from '@mantine/core';
import { Link, useMatch } from 'react-router';
import { interfaceLanguageFor } from '@partner-portal/contracts';
import { LanguageChoice } from '@/components/language-choice';
import { Logo } from '@/components/logo';
import { changeLanguage, i18n, openedWithLinkLanguage } from '@/lib/i18n';
import { useSessionUser } from '@/lib/session';
import { Footer } from '@/components/footer';
import { RemoveScroll } from '@/lib/remove-scroll-classes';
import { RoutedView } from '../routed-view';
import { SupportBanner } from '@/features/support/components/support-banner';
import { UserMenu } from './user-menu';
import { SkipLink } from './skip-link';
import classes from './app-layout.module.css';

/** Logged-in pages: header with the logo, the language picker and the user dropdown, the page, the footer. */
export function AppLayout() {
  const { t } = useTranslation();
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
      {/* the header keeps clear of the scroll bar that a dialog's scroll lock takes away */}
      <header className={`${classes.header} ${RemoveScroll.classNames.zeroRight}`}>
        <Group h="100%" justify="space-between" wrap="nowrap">
          {/* below 576 px the mark alone, so the language picker and the user menu fit at 390 px */}
          <UnstyledButton component={Link} to="/" aria-label={t('product_name')}>
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
      </header>
      <main id="main" tabIndex={-1} className={classes.main}>
        {/* a support session (docs/security.md, "Support sessions"): its banner with End on every page */}
        {user?.supportSession ? (
          <Suspense fallback={null}>
            <SupportBanner user={user} session={user.supportSession} />
          </Suspense>
        ) : null}
        <Box id="content" style={{ flex: 1 }}>
          <RoutedView />
        </Box>
        {!ownFooter && <Footer />}
      </main>
    </>
  );
}
