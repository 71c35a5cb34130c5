import { cloneElement, useState, type FocusEvent, type KeyboardEvent, type PointerEvent, type ReactElement } from 'react';
import type { TooltipProps } from '@mantine/core';
import { floating, useOnDemand } from './on-demand';

type Trigger = ReactElement<Record<string, unknown>>;

/**
 * Mantine's Tooltip, loaded when its element is first pointed at, focused or touched
 * (./on-demand.ts). The element itself stays as it is (a dialog it opens gives the focus back to
 * it); the tooltip is attached to it once loaded (Mantine's `target`), shown while the element is
 * pointed at (`events.hover`; touched too with `events.touch`) or focused by the keyboard
 * (`events.focus`), and hidden by Escape, as Mantine's own shows and hides it. The element must take
 * a ref.
 */
export function Tooltip({
  children,
  events = { hover: true, focus: false, touch: false },
  disabled,
  ...props
}: Omit<TooltipProps, 'children'> & { children: Trigger }) {
  const { loaded, trigger, standIn } = useOnDemand(floating);
  const [pointed, setPointed] = useState(false);
  const [focused, setFocused] = useState(false);
  const own = children.props;
  const chain =
    <E,>(name: string, then: (event: E) => void) =>
    (event: E) => {
      (own[name] as ((e: E) => void) | undefined)?.(event);
      then(event);
    };
  const element = cloneElement(children, {
    ref: trigger,
    onPointerEnter: chain('onPointerEnter', (e: PointerEvent) => {
      if (e.pointerType === 'touch' && !events.touch) return;
      setPointed(true);
      standIn.onPointerEnter();
    }),
    onPointerLeave: chain('onPointerLeave', () => setPointed(false)),
    onFocus: chain('onFocus', (e: FocusEvent<HTMLElement>) => {
      if (e.currentTarget.matches(':focus-visible')) setFocused(true);
      standIn.onFocus();
    }),
    onBlur: chain('onBlur', () => setFocused(false)),
    onKeyDown: chain('onKeyDown', (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setPointed(false);
      setFocused(false);
    }),
  });
  const opened = !disabled && ((!!events.hover && pointed) || (!!events.focus && focused));
  return (
    <>
      {element}
      {loaded ? <loaded.Tooltip {...props} target={trigger} opened={opened} /> : null}
    </>
  );
}
