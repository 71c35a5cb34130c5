import { Anchor, Code, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { PageLoader } from '@/components/page-loader';
import { paths } from '@/lib/paths';
import { signInErrorKey } from '@/lib/errors';
import { errorQuery } from '../api/get-error';

/** /error?errorId (docs/product.md, "Screens"): why an authorization request failed. */
export function ErrorPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const errorId = params.get('errorId');
  const query = useQuery(errorQuery(errorId));
  if (errorId && query.isPending) return <PageLoader minHeight={200} />;
  const error = query.data;
  // the user reads what happened in their language; the technical code stays below for support
  const title = !error?.error ? t('error') : error.error === 'unauthorized_client' ? t('unauthorized') : t('sign_in_failed');
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {title}
      </Title>
      <Text>{error?.error ? t(signInErrorKey(error.error)) : t('something_went_wrong')}</Text>
      {error?.error && (
        <Text size="sm" c="gray.7">
          {t('error_code')}: <Code>{error.error}</Code>
          {error.error_description ? ` · ${error.error_description}` : null}
        </Text>
      )}
      {error?.request_id && (
        <Text size="sm">
          {t('request_id')}: <Code>{error.request_id}</Code>
        </Text>
      )}
      <Anchor component={Link} to={paths.home}>
        {t('back_to_homepage')}
      </Anchor>
    </Stack>
  );
}
