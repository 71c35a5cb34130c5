import type { ReactNode } from 'react';
import { Button, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '@/lib/paths';

/** A page that could not be shown, centred: its icon, what happened, and the way back to the homepage. */
export function ErrorMessage({
  icon,
  color,
  title,
  text,
  above,
  maw,
}: {
  icon: ReactNode;
  color?: string;
  title: string;
  text: string;
  /** shown above the icon (the logo, on a page without the portal's header) */
  above?: ReactNode;
  maw?: number;
}) {
  const { t } = useTranslation();
  return (
    <Stack align="center" gap="md" ta="center" maw={maw}>
      {above}
      <ThemeIcon size={64} radius="xl" variant="light" color={color} aria-hidden>
        {icon}
      </ThemeIcon>
      <Title order={1}>{title}</Title>
      <Text>{text}</Text>
      <Button component={Link} to={paths.home}>
        {t('back_to_homepage')}
      </Button>
    </Stack>
  );
}
