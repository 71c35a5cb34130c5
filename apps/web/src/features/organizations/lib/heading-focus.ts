/**
 * The navigation state that asks the organization view to put the focus on its heading: after a
 * creation or a deletion (the button that was used is gone with the view it was on) and after a
 * choice in the folded tree (which folds away with the focused item).
 */
export const FOCUS_HEADING = { focusHeading: true } as const;

export function asksHeadingFocus(state: unknown): boolean {
  return typeof state === 'object' && state !== null && 'focusHeading' in state;
}
