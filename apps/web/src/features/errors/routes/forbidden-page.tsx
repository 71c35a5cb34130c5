import { Button, Container, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/lib/paths';

/** /forbidden: no access to the requested page. */
export function ForbiddenPage() {
  const { t } = useTranslation();
  return (
    <Container size="sm" py={64}>
      <Stack align="center" gap="md" ta="center">
        <ThemeIcon size={64} radius="xl" variant="light" color="red" aria-hidden>
          <IconLock size={34} />
        </ThemeIcon>
        <Title order={1}>{t('forbidden_title')}</Title>
        <Text>{t('forbidden')}</Text>
        <Button component={Link} to={paths.home}>
          {t('back_to_homepage')}
        </Button>
      </Stack>
    </Container>
  );
}
