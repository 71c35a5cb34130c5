import { Box, Center, Divider, Group, Paper, Stack } from '@mantine/core';
import { useReducedMotion } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { Logo } from '@/components/logo';
import { LanguagePicker } from '@/components/language-picker';
import { SkipLink } from './skip-link';
import { DEFAULT_CONFIGURATION, configurationQuery } from '@/lib/config';
import { RoutedView } from '../routed-view';
import classes from './login-layout.module.css';

/**
 * Login layout (spec §2): the logo, the routed card, and a looping muted background video of
 * cows. Visitors who ask for reduced motion see its still poster instead.
 */
export function LoginLayout() {
  const reduceMotion = useReducedMotion();
  const { data: config = DEFAULT_CONFIGURATION } = useQuery(configurationQuery);
  // the shipped still belongs to the shipped clip; another configured clip shows its own first frame
  const poster = config.login_video_url === DEFAULT_CONFIGURATION.login_video_url ? config.login_video_poster_url : undefined;
  return (
    <Box className={classes.root}>
      <SkipLink />
      {reduceMotion ? (
        poster && <img className={classes.media} src={poster} alt="" aria-hidden="true" />
      ) : (
        <video
          className={classes.media}
          src={config.login_video_url}
          poster={poster}
          autoPlay
          muted
          loop
          playsInline
          preload="auto"
          aria-hidden="true"
          tabIndex={-1}
        />
      )}
      <div className={classes.shade} aria-hidden="true" />
      <Center className={classes.content}>
        <Stack gap="lg" w="100%" maw={440} align="stretch">
          <Center>
            <Link to="/" className={classes.logoLink}>
              <Logo size={40} inverted />
            </Link>
          </Center>
          <Paper component="main" id="main" shadow="xl" radius="lg" p={{ base: 'lg', sm: 'xl' }} withBorder>
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
