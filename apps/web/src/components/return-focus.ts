import { useLayoutEffect } from 'react';

/**
 * For a dialog shown only while it is mounted (unmounted on closing, so Mantine's own focus return
 * never runs): remembers the element that had the focus when it opened, and gives the focus back to
 * it once the dialog is gone (Escape, its close button, Cancel), unless something else took it. A
 * layout effect, so it runs before the dialog moves the focus inside.
 */
export function useReturnFocusOnUnmount(): void {
  useLayoutEffect(() => {
    const opener = document.activeElement;
    return () => {
      // after the dialog has released its focus trap
      window.setTimeout(() => {
        const lost = !document.activeElement || document.activeElement === document.body;
        if (lost && opener instanceof HTMLElement && opener.isConnected) opener.focus();
      }, 0);
    };
  }, []);
}
