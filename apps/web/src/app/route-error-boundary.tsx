import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, useRouteError } from 'react-router';

/** Shown when a view fails to load or render (e.g. a new release replaced its chunk). */
export function RouteErrorBoundary() {
  const { t } = useTranslation();
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : null;
  return (
    <Center mih="100dvh" p="md" component="main">
      <Stack align="center" gap="md" maw={480} ta="center">
        <Title order={1}>{status === 404 ? t('not_found_title') : t('something_went_wrong')}</Title>
        <Text>{t('error_try_again')}</Text>
        <Button onClick={() => window.location.reload()}>{t('reload_page')}</Button>
      </Stack>
    </Center>
  );
}
