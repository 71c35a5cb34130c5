import { useRef, type CSSProperties } from 'react';
import { Link } from 'react-router';
import { Logo } from '@/components/logo';
import { LanguagePicker } from '@/components/language-picker';
import { Center, Divider, Group, rem, Stack } from '@/components/plain';
import { SkipLink } from './skip-link';
import { useConfiguration } from '@/lib/config';
import { RoutedView } from '../routed-view';
import { LoginBackground } from './login-background';
import classes from './login-layout.module.css';

/**
 * Login layout (docs/product.md, "Screens"): the logo, the routed card, and the looping muted background video of a
 * pasture with cows (LOGIN_VIDEO_URL; the portal ships its own). Its still shows first; the video
 * starts once the form is usable, and never for visitors who prefer no motion or less data
 * (docs/performance.md, "The login page on a slow connection"). Mantine's layout components as
 * plain elements (components/plain.tsx): the login route renders without Mantine's provider
 * (docs/decisions/022-login-and-manage-bundles.md, third round).
 */
export function LoginLayout() {
  const config = useConfiguration();
  const page = useRef<HTMLElement>(null);
  return (
    <div className={classes.root}>
      <SkipLink />
      <LoginBackground still={config.login_video_poster_url} video={config.login_video_url} pageRef={page} />
      <div className={classes.shade} aria-hidden="true" />
      <Center className={classes.content}>
        <Stack gap="lg" style={{ width: '100%', maxWidth: rem(440) }}>
          <Center component="header">
            <Link to="/" className={classes.logoLink}>
              <Logo size={40} inverted />
            </Link>
          </Center>
          {/* Mantine's Paper, its padding lg, and xl from the sm breakpoint on */}
          <main
            style={{ '--paper-radius': 'var(--mantine-radius-lg)', '--paper-shadow': 'var(--mantine-shadow-xl)' } as CSSProperties}
            className={`m_1b7284a3 mantine-Paper-root ${classes.card}`}
            data-with-border="true"
            id="main"
            ref={page}
          >
            <RoutedView />
            <Divider style={{ marginBlock: 'var(--mantine-spacing-md)' }} />
            <Group justify="flex-end">
              <LanguagePicker />
            </Group>
          </main>
        </Stack>
      </Center>
    </div>
  );
}
