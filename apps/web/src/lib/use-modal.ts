import { useRef, useState } from 'react';

/**
 * Which modal is open. Focus goes back to the control that opened it on closing, or, when that
 * control is gone (a removed row), to `fallback` (the page heading). `wanted`: a modal has been
 * opened (the dialogs' code may load).
 */
export function useModal<T extends { type: string }>() {
  const [modal, setModal] = useState<T | null>(null);
  const opener = useRef<HTMLElement | null>(null);
  const fallback = useRef<HTMLHeadingElement>(null);
  // the dialogs' code is loaded once the first one opens, then stays
  const [wanted, setWanted] = useState(false);
  if (modal && !wanted) setWanted(true);
  const open = (next: T) => {
    if (document.activeElement instanceof HTMLElement && document.activeElement !== document.body) opener.current = document.activeElement;
    setModal(next);
  };
  const close = () => {
    setModal(null);
    const target = opener.current;
    opener.current = null;
    // after the modal has unmounted and released its focus trap
    window.setTimeout(() => {
      if (target?.isConnected) target.focus();
      else fallback.current?.focus();
    }, 0);
  };
  return { modal, open, close, fallback, wanted };
}
