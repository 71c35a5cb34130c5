import { cloneElement, type ReactElement } from 'react';
import type { TooltipProps } from '@mantine/core';
import { floating, useOnDemand } from './on-demand';

type Trigger = ReactElement<Record<string, unknown>>;

/**
 * Mantine's Tooltip, loaded when its element is first pointed at, focused or touched
 * (./on-demand.ts). Until then the element is shown alone, as it is while a tooltip is closed; a
 * tooltip whose element is still pointed at (or, with `events.focus`, focused by the keyboard)
 * when the code arrives opens at once. The element must take a ref (Mantine's own must too).
 */
export function Tooltip({ children, ...props }: Omit<TooltipProps, 'children'> & { children: Trigger }) {
  const { loaded, trigger, standIn, stateAtSwap } = useOnDemand(floating);
  if (loaded) {
    const { hovered, focusVisible } = stateAtSwap.current;
    const events = props.events ?? { hover: true, focus: false, touch: false };
    return (
      <loaded.Tooltip defaultOpened={!props.disabled && ((events.hover && hovered) || (events.focus && focusVisible))} {...props}>
        {cloneElement(children, { ref: trigger })}
      </loaded.Tooltip>
    );
  }
  if (props.disabled) return children;
  const own = children.props;
  const chain =
    (name: string, then: () => void) =>
    (...args: unknown[]) => {
      (own[name] as ((...a: unknown[]) => void) | undefined)?.(...args);
      then();
    };
  return cloneElement(children, {
    ref: trigger,
    onPointerEnter: chain('onPointerEnter', standIn.onPointerEnter),
    onFocus: chain('onFocus', standIn.onFocus),
    onTouchStart: chain('onTouchStart', standIn.onTouchStart),
  });
}
