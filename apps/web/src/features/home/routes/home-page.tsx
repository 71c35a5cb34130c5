import { Alert, Container, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconUsers } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { errorText } from '@/components/notify';
import { paths } from '@/lib/paths';
import { useSessionUser } from '@/lib/session';
import { notificationsQuery } from '../api/get-notifications';
import { tilesQuery } from '../api/get-tiles';
import { TileCard, type TileView } from '../components/tile-card';
import { TileIcon } from '../components/tile-icon';

/** Home (docs/product.md, "Screens"): heading, subtitle, the portal's warnings and the application tiles. */
export function HomePage() {
  const { t } = useTranslation();
  const { data: user } = useSessionUser();
  const tiles = useQuery(tilesQuery);
  const notices = useQuery(notificationsQuery);

  const views: TileView[] = (tiles.data ?? []).map((tile) => ({
    // a catalogue tile's name is translated by the key beside its description key
    name: t(tile.description_i18_nkey.replace(/_description$/, '_name'), { defaultValue: tile.name }),
    description: t(tile.description_i18_nkey, { defaultValue: '' }),
    icon: <TileIcon name={tile.icon} />,
    comingSoon: tile.coming_soon,
    routerPath: tile.router_path,
    uri: tile.uri,
  }));
  // the portal's own administration tile comes first, where an administrator looks for it (on a
  // phone the tiles are one column, and the last one far down the page)
  const management = views.findIndex((v) => v.routerPath?.startsWith('/manage-organization'));
  if (management > 0) views.unshift(...views.splice(management, 1));
  if (user?.manageUsersOrOrganizations && user.organizationId && management < 0) {
    views.unshift({
      name: t('user_management_tile'),
      description: t('user_management_tile_description'),
      icon: <IconUsers size={26} stroke={1.6} />,
      comingSoon: false,
      routerPath: paths.manageOrganization(user.organizationId),
      uri: '',
    });
  }

  return (
    <Container size="lg" py="xl">
      <Stack gap="lg">
        <div>
          <Title order={1}>{user?.firstName ? t('home_heading_named', { name: user.firstName }) : t('home_heading')}</Title>
          <Text c="dimmed" size="lg" mt={4}>
            {t('home_subtitle')}
          </Text>
        </div>
        {(notices.data ?? []).map((notice, i) => (
          <Alert key={i} color="yellow" variant="light" icon={<IconAlertTriangle aria-hidden />} title={t('notice')}>
            {notice.text}
          </Alert>
        ))}
        {tiles.isError && (
          <Alert color="red" variant="light" role="alert">
            {errorText(tiles.error)}
          </Alert>
        )}
        <SimpleGrid
          cols={{ base: 1, xs: 2, md: 3 }}
          spacing="lg"
          component="ul"
          style={{ listStyle: 'none', padding: 0, margin: 0 }}
          aria-label={t('applications')}
        >
          {tiles.isPending
            ? [0, 1, 2].map((i) => (
                <li key={i}>
                  <Skeleton height={150} radius="lg" />
                </li>
              ))
            : views.map((view) => (
                <li key={`${view.name}-${view.routerPath ?? view.uri}`}>
                  <TileCard tile={view} />
                </li>
              ))}
        </SimpleGrid>
        {!tiles.isPending && views.length === 0 && !tiles.isError && <Text c="dimmed">{t('no_applications')}</Text>}
      </Stack>
    </Container>
  );
}
