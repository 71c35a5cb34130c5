import { Button, Center, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconMapPinQuestion } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Logo } from '@/components/logo';
import { paths } from '@/lib/paths';

/** Any other path: not found, with the way back to the homepage. */
export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <Center mih="100dvh" p="md" component="main" bg="gray.0">
      <Stack align="center" gap="md" ta="center" maw={520}>
        <Logo size={36} />
        <ThemeIcon size={64} radius="xl" variant="light" aria-hidden>
          <IconMapPinQuestion size={34} />
        </ThemeIcon>
        <Title order={1}>{t('not_found_title')}</Title>
        <Text>{t('not_found_text')}</Text>
        <Button component={Link} to={paths.home}>
          {t('back_to_homepage')}
        </Button>
      </Stack>
    </Center>
  );
}
