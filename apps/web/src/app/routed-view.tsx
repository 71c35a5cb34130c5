import { Suspense, useLayoutEffect, type ReactNode } from 'react';
import { Outlet } from 'react-router';
import { PageLoader } from '@/components/page-loader';
import { followStartLanguage } from '@/lib/i18n';
import { handOverPrerenderedForm } from '@/lib/hand-over';

/** A view while its code loads: a spinner in its place; the layout around it stays. */
export function Loading({ children }: { children: ReactNode }) {
  return <Suspense fallback={<PageLoader minHeight="60vh" />}>{children}</Suspense>;
}

/**
 * Beside the routed view, in its Suspense boundary: runs when the view has hydrated (or first
 * rendered), and hands a pre-rendered page's typed values and held submission over to it (a form
 * marked `data-hand-over="own"` takes them itself: src/prerender/hand-over.ts); then
 * the language the visitor's device starts in, where the page was sent in another.
 */
function HandOver() {
  useLayoutEffect(() => {
    handOverPrerenderedForm();
    void followStartLanguage();
  }, []);
  return null;
}

/** The routed content of a layout, loaded on demand. */
export function RoutedView() {
  return (
    <Loading>
      <Outlet />
      <HandOver />
    </Loading>
  );
}
