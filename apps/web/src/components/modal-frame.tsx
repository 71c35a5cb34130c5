import { lazy, Suspense, useEffect, useRef, type ReactNode } from 'react';
import { Alert, List } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useReturnFocusOnUnmount } from '@/components/return-focus';

// Mantine's Modal with its scroll lock (about 10 KB gzipped) loads with the first dialog opened,
// not with the page (docs/decisions/022-login-and-manage-bundles.md).
const ModalDialog = lazy(() => import('./modal-dialog').then((m) => ({ default: m.ModalDialog })));

/**
 * A modal of this feature: above the overlay (modal layer 1100, overlay 1000; docs/product.md, "Limits
 * and constants"). Shown while it is mounted; closed, it gives the focus back to what opened it.
 */
export function ModalFrame({
  title,
  onClose,
  children,
  size = 'md',
  closeOnClickOutside = true,
}: {
  title: string;
  onClose: () => void;
  children: ReactNode;
  size?: string;
  /** false while the modal shows something that would be lost by a stray click (a secret shown once) */
  closeOnClickOutside?: boolean;
}) {
  useReturnFocusOnUnmount();
  return (
    // its own boundary: while the Modal's code loads, the page stays as it is
    <Suspense fallback={null}>
      <ModalDialog title={title} onClose={onClose} size={size} closeOnClickOutside={closeOnClickOutside}>
        {children}
      </ModalDialog>
    </Suspense>
  );
}

/**
 * The summary of a failure inside a modal: the translated error and the returned Messages. It sits
 * just above the modal's buttons, where the user is looking, and scrolls into view when it appears.
 */
export function ProblemSummary({ lines }: { lines: string[] | null }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  const shown = !!lines && lines.length > 0;
  useEffect(() => {
    if (!shown) return;
    // the summary, and the buttons right below it, in view
    ref.current?.scrollIntoView({ block: 'nearest' });
    ref.current?.nextElementSibling?.scrollIntoView({ block: 'nearest' });
  }, [shown, lines]);
  if (!lines || lines.length === 0) return null;
  return (
    <Alert ref={ref} color="red" title={t('org_error_title')} role="alert">
      {lines.length === 1 ? (
        lines[0]
      ) : (
        <List size="sm">
          {lines.map((line) => (
            <List.Item key={line}>{line}</List.Item>
          ))}
        </List>
      )}
    </Alert>
  );
}
