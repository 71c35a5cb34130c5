import { useLayoutEffect } from 'react';

/**
 * While a dialog is open, remembers the element that had the focus when it opened, and gives the
 * focus back to it once the dialog has closed (Escape, its close button, Cancel) when nothing else
 * took it: a dialog shown only while open (unmounted on closing) never gets Mantine's own return.
 * A layout effect, so it runs before the dialog moves the focus inside.
 */
export function useReturnFocus(opened: boolean): void {
  useLayoutEffect(() => {
    if (!opened) return;
    const opener = document.activeElement;
    return () => {
      // after the dialog has released its focus trap
      window.setTimeout(() => {
        const lost = !document.activeElement || document.activeElement === document.body;
        if (lost && opener instanceof HTMLElement && opener.isConnected) opener.focus();
      }, 0);
    };
  }, [opened]);
}
