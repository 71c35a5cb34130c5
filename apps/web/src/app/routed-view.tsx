import { Suspense, type ReactNode } from 'react';
import { Outlet } from 'react-router';
import { PageLoader } from '@/components/page-loader';

/** A view while its code loads: a spinner in its place; the layout around it stays. */
export function Loading({ children }: { children: ReactNode }) {
  return <Suspense fallback={<PageLoader minHeight="60vh" />}>{children}</Suspense>;
}

/** The routed content of a layout, loaded on demand. */
export function RoutedView() {
  return (
    <Loading>
      <Outlet />
    </Loading>
  );
}
