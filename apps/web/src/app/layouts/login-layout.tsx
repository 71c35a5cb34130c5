import { Box, Center, Divider, Group, Paper, Stack } from '@mantine/core';
import { useRef } from 'react';
import { Link } from 'react-router';
import { Logo } from '@/components/logo';
import { LanguagePicker } from '@/components/language-picker';
import { SkipLink } from './skip-link';
import { useConfiguration } from '@/lib/config';
import { RoutedView } from '../routed-view';
import { LoginBackground } from './login-background';
import classes from './login-layout.module.css';

/**
 * Login layout (docs/product.md, "Screens"): the logo, the routed card, and the looping muted background video of a
 * pasture with cows (LOGIN_VIDEO_URL; the portal ships its own). Its still shows first; the video
 * starts once the form is usable, and never for visitors who prefer no motion or less data
 * (docs/performance.md, "The login page on a slow connection").
 */
export function LoginLayout() {
  const config = useConfiguration();
  const page = useRef<HTMLDivElement>(null);
  return (
    <Box className={classes.root}>
      <SkipLink />
      <LoginBackground still={config.login_video_poster_url} video={config.login_video_url} pageRef={page} />
      <div className={classes.shade} aria-hidden="true" />
      <Center className={classes.content}>
        <Stack gap="lg" w="100%" maw={440} align="stretch">
          <Center component="header">
            <Link to="/" className={classes.logoLink}>
              <Logo size={40} inverted />
            </Link>
          </Center>
          <Paper component="main" id="main" shadow="xl" radius="lg" p={{ base: 'lg', sm: 'xl' }} withBorder ref={page}>
            <RoutedView />
            <Divider my="md" />
            <Group justify="flex-end">
              <LanguagePicker />
            </Group>
          </Paper>
        </Stack>
      </Center>
    </Box>
  );
}
