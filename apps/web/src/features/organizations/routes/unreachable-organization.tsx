import { Alert, Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@/lib/api';
import { paths } from '@/lib/paths';
import { errorLines } from '@/components/notify';

/**
 * Why /manage-organization/{id} shows no organization: one outside the manager's subtree (the
 * server answers 403, e.g. a bookmark or a link from someone else) or one that does not exist
 * (404) is said as such, with the way to the manager's own organization (`ownId`, the root of
 * their tree, once known); any other failure keeps the general message.
 */
export function UnreachableOrganization({ error, ownId }: { error: unknown; ownId: string | undefined }) {
  const { t } = useTranslation();
  const status = error instanceof ApiError ? error.status : null;
  if (status !== 403 && status !== 404)
    return (
      <Alert color="red" role="alert" title={t('org_error_title')}>
        {errorLines(error).join(' ')}
      </Alert>
    );
  const forbidden = status === 403;
  return (
    <Alert
      color={forbidden ? 'yellow' : 'gray'}
      role="alert"
      // the title in the text colour: the light variant's own shade is too faint on yellow
      styles={{ title: { color: 'var(--mantine-color-text)' } }}
      title={t(forbidden ? 'manageOutsideSubtree.forbiddenTitle' : 'manageOutsideSubtree.notFoundTitle')}
    >
      <Text size="sm">{t(forbidden ? 'manageOutsideSubtree.forbidden' : 'manageOutsideSubtree.notFound')}</Text>
      <Anchor component={Link} to={ownId ? paths.manageOrganization(ownId) : '/'} size="sm" mt="xs" display="inline-block" fw={600}>
        {t('manageOutsideSubtree.back')}
      </Anchor>
    </Alert>
  );
}
