import { useEffect, useLayoutEffect, useRef, type RefObject } from 'react';

/** The opener of the dialog that just unmounted, for a dialog that takes its place in the same commit. */
let handedOn: Element | null = null;

/**
 * For a dialog shown only while it is mounted (unmounted on closing, so Mantine's own focus return
 * never runs): remembers the element that had the focus when it opened, and gives the focus back to
 * it once the dialog is gone (Escape, its close button, Cancel), unless something else took it. A
 * layout effect, so it runs before the dialog moves the focus inside. A dialog that replaces
 * another (a form followed by its result, a component of its own) opens while the focus is on
 * nothing: it takes over the opener of the one it replaces.
 */
export function useReturnFocusOnUnmount(): void {
  useLayoutEffect(() => {
    const active = document.activeElement;
    const opener = active && active !== document.body ? active : handedOn;
    return () => {
      handedOn = opener;
      // after the dialog has released its focus trap
      window.setTimeout(() => {
        if (handedOn === opener) handedOn = null;
        const lost = !document.activeElement || document.activeElement === document.body;
        if (lost && opener instanceof HTMLElement && opener.isConnected) opener.focus();
      }, 0);
    };
  }, []);
}

/**
 * For a button whose action disables it while it runs (Mantine's `loading`) and re-renders what is
 * around it: once the action is done, a focus that dropped to the page (where the next Tab would
 * start over at the skip link) comes back to the element of the returned ref.
 */
export function useFocusBackAfter<T extends HTMLElement>(busy: boolean): RefObject<T | null> {
  const ref = useRef<T>(null);
  const wasBusy = useRef(false);
  useEffect(() => {
    if (busy) {
      wasBusy.current = true;
      return;
    }
    if (!wasBusy.current) return;
    wasBusy.current = false;
    const lost = !document.activeElement || document.activeElement === document.body;
    if (lost) ref.current?.focus();
  }, [busy]);
  return ref;
}
