import type { ReactNode } from 'react';
import { Badge, Card, Group, Text, ThemeIcon, VisuallyHidden } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import classes from './tile-card.module.css';

export interface TileView {
  name: string;
  description: string;
  icon: ReactNode;
  comingSoon: boolean;
  /** an internal route, or else an address opened in a new tab */
  routerPath: string | null;
  uri: string;
}

/** One application tile: internal link, new-tab link, or inactive while coming soon (docs/product.md, "Screens"). */
export function TileCard({ tile }: { tile: TileView }) {
  const { t } = useTranslation();
  const body = (
    <>
      <Group justify="space-between" align="flex-start" wrap="nowrap" mb="sm">
        <ThemeIcon size={44} radius="md" variant="light" color={tile.comingSoon ? 'gray' : 'brand'} aria-hidden>
          {tile.icon}
        </ThemeIcon>
        {tile.comingSoon ? (
          <Badge color="gray" variant="light">
            {t('coming_soon')}
          </Badge>
        ) : (
          !tile.routerPath && <IconExternalLink size={16} aria-hidden color="var(--mantine-color-gray-6)" />
        )}
      </Group>
      <Text fw={700} size="lg" className={classes.title}>
        {tile.name}
      </Text>
      <Text size="sm" c="dimmed" mt={4}>
        {tile.description}
      </Text>
    </>
  );
  if (tile.comingSoon) {
    return (
      <Card withBorder radius="lg" padding="lg" className={classes.inactive} aria-disabled="true">
        {body}
      </Card>
    );
  }
  if (tile.routerPath) {
    return (
      <Card withBorder radius="lg" padding="lg" component={Link} to={tile.routerPath} className={classes.active}>
        {body}
      </Card>
    );
  }
  return (
    <Card
      withBorder
      radius="lg"
      padding="lg"
      component="a"
      href={tile.uri}
      target="_blank"
      rel="noopener noreferrer"
      className={classes.active}
    >
      {body}
      <VisuallyHidden>{` (${t('opens_in_new_tab')})`}</VisuallyHidden>
    </Card>
  );
}
