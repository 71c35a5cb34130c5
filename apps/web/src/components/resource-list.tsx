import { Fragment, useEffect, type ReactNode } from 'react';
import { Loader, Stack, Text } from '@mantine/core';
import { notifyError } from './notify';

/** What a list panel reads of its query (TanStack Query's result). */
export interface ListQuery {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  /** present once the list has come, even empty */
  data?: unknown;
}

/**
 * The list of a panel on the manage page (domains, sign-in connections, access requests, service
 * accounts, SCIM tokens, webhooks, audit streams): a loader while it comes, its failure as a
 * notification, a sentence when it is empty, else the items as a labelled list, each item its own
 * `<li>` (the panel's `item`).
 */
export function ResourceList<T>({
  query,
  items,
  itemKey,
  item,
  label,
  loading,
  empty,
}: {
  query: ListQuery;
  items: readonly T[];
  itemKey: (item: T) => string;
  item: (item: T) => ReactNode;
  /** the list's accessible name */
  label: string;
  /** the loader's accessible name */
  loading: string;
  /** shown when the list came empty */
  empty: string;
}) {
  const { isError, error } = query;
  useEffect(() => {
    if (isError) notifyError(error);
  }, [isError, error]);
  return (
    <>
      {query.isPending ? <Loader size="sm" role="status" aria-label={loading} /> : null}
      {query.data && items.length === 0 ? (
        <Text size="sm" c="gray.7">
          {empty}
        </Text>
      ) : null}
      {items.length > 0 ? (
        <Stack component="ul" gap="xs" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label={label}>
          {items.map((entry) => (
            <Fragment key={itemKey(entry)}>{item(entry)}</Fragment>
          ))}
        </Stack>
      ) : null}
    </>
  );
}
