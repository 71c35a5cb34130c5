import { lazy, Suspense, useState } from 'react';
import { useNotifications } from '@mantine/notifications';

const ToastContainer = lazy(() => import('./toast-container').then((m) => ({ default: m.ToastContainer })));

/**
 * Toasts (docs/product.md, "Limits and constants"). Their container, with its transitions and portal, loads when the first toast
 * is shown, so pages that show none do not pay for it; the toast waits in the store meanwhile.
 */
export function Toasts() {
  const { notifications, queue } = useNotifications();
  const [needed, setNeeded] = useState(false);
  if (!needed && notifications.length + queue.length > 0) setNeeded(true);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <ToastContainer />
    </Suspense>
  );
}
