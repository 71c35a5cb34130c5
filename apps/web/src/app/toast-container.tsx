import '@mantine/core/styles/Notification.css';
import '@mantine/notifications/styles.css';
import { Notifications } from '@mantine/notifications';
import { PortalMantine } from '@/components/mantine';
import classes from './toast-container.module.css';

/**
 * The toasts' container (docs/product.md, "Limits and constants": top-right, 2000 ms, paused on hover, several at once). It starts
 * below the header, so a toast never covers the user menu. It has Mantine's provider of its own: a
 * toast may come on the login route, which renders without one (components/mantine.tsx).
 */
export function ToastContainer() {
  return (
    <PortalMantine>
      <Notifications
        position="top-right"
        autoClose={2000}
        limit={5}
        pauseResetOnHover="notification"
        zIndex={1200}
        className={classes.toasts}
      />
    </PortalMantine>
  );
}
