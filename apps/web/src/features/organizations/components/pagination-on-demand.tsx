import { lazy, Suspense } from 'react';
import { Box, type PaginationProps } from '@mantine/core';

// Mantine's Pagination (about 3 KB gzipped) loads when a list first has pages: most lists have one
const Pagination = lazy(() => import('./pagination').then((m) => ({ default: m.Pagination })));

/** Mantine's Pagination, loaded when it is first shown; until then a stand-in of its height. */
export function PaginationOnDemand(props: PaginationProps) {
  return (
    <Suspense fallback={<Box h={32} mt={props.mt} />}>
      <Pagination {...props} />
    </Suspense>
  );
}
