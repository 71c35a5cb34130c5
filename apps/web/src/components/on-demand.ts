import { useLayoutEffect, useRef, useState, type RefObject } from 'react';

/**
 * Code a control loads when it is first about to be used (a pointer over it, the focus, a touch),
 * instead of with the page: Mantine's Menu, Tooltip and Combobox bring Floating UI (about 30 KB
 * gzipped with them) that the manage page does not need until one opens
 * (docs/decisions/022-login-and-manage-bundles.md). Loaded once for every control that uses it.
 */
export interface OnDemand<T> {
  readonly current: T | undefined;
  load(): Promise<T>;
}

export function onDemand<T>(load: () => Promise<T>): OnDemand<T> {
  let current: T | undefined;
  let loading: Promise<T> | undefined;
  return {
    get current() {
      return current;
    },
    load: () =>
      (loading ??= load().then(
        (value) => (current = value),
        (error: unknown) => {
          loading = undefined;
          throw error;
        },
      )),
  };
}

/** Mantine's Menu, Select and Tooltip (./floating.ts), for the controls that float. */
export const floating = onDemand(() => import('./floating'));

/** What the stand-in gives its element until the code is there: the events that show intent. */
export interface StandInProps {
  ref: RefObject<HTMLElement | null>;
  onPointerEnter: () => void;
  onFocus: () => void;
  onTouchStart: () => void;
  onClick: () => void;
}

/**
 * A control shown as a stand-in (the same element as the loaded control shows while closed) until
 * its code is loaded, then as the loaded control. The element is replaced then: when it had the
 * focus, its successor takes it, and a click on the stand-in before the code came is given to its
 * successor, so the control opens as if the code had been there. `trigger` must reach the element
 * in both forms.
 */
export function useOnDemand<T>(code: OnDemand<T>): {
  loaded: T | undefined;
  trigger: RefObject<HTMLElement | null>;
  standIn: StandInProps;
  /** what the element was doing when the code arrived (a tooltip opens if hovered) */
  stateAtSwap: RefObject<{ focused: boolean; hovered: boolean; focusVisible: boolean }>;
} {
  const [loaded, setLoaded] = useState(code.current);
  const trigger = useRef<HTMLElement | null>(null);
  const clicked = useRef(false);
  const stateAtSwap = useRef({ focused: false, hovered: false, focusVisible: false });
  const asked = useRef(false);
  const intent = () => {
    if (loaded !== undefined || asked.current) return;
    asked.current = true;
    code.load().then(
      (value) => {
        const element = trigger.current;
        stateAtSwap.current = {
          focused: !!element && document.activeElement === element,
          hovered: !!element?.matches(':hover'),
          focusVisible: !!element?.matches(':focus-visible'),
        };
        setLoaded(() => value);
      },
      () => {
        // the next intent tries again (a new release may have replaced the chunk: the page reloads then)
        asked.current = false;
      },
    );
  };
  useLayoutEffect(() => {
    if (loaded === undefined || !asked.current) return;
    asked.current = false;
    const element = trigger.current;
    if (stateAtSwap.current.focused) element?.focus({ preventScroll: true });
    if (clicked.current) {
      clicked.current = false;
      element?.click();
    }
  }, [loaded]);
  return {
    loaded,
    trigger,
    stateAtSwap,
    standIn: {
      ref: trigger,
      onPointerEnter: intent,
      onFocus: intent,
      onTouchStart: intent,
      onClick: () => {
        clicked.current = true;
        intent();
      },
    },
  };
}
