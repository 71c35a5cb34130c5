/**
 * `react` for the web build: Preact's compatibility layer, plus React 19.2's `Activity`, which
 * Mantine 9 renders for kept-mounted transitions and which preact/compat lacks. Why the portal
 * ships Preact: docs/decisions/006-web-bundle-budget.md. (Plain JavaScript: preact/compat's types
 * are declared with `export =`, which TypeScript cannot re-export with `export *`.)
 *
 * Activity here keeps its children mounted and hides them while `mode` is 'hidden' (React also
 * defers their updates and effects); `display: contents` keeps the wrapper out of layout while
 * visible.
 */
import { createElement } from 'preact/compat';

export * from 'preact/compat';
export { default } from 'preact/compat';

/** @param {{ mode?: 'visible' | 'hidden', children?: import('preact').ComponentChildren }} props */
export function Activity({ mode = 'visible', children }) {
  return createElement('div', { style: { display: mode === 'hidden' ? 'none' : 'contents' } }, children);
}
