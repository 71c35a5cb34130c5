import { forwardRef, type ComponentPropsWithoutRef } from 'react';

/**
 * `Table.ScrollContainer` as a plain scrolling box. Mantine's Table module attaches its scroll
 * container, and with it the whole ScrollArea (about 5 KB gzipped), to every `Table`, although the
 * portal's tables never use it; the build gives the Table this module instead
 * (`mantineImportsNarrowed` in vite.config.ts, docs/decisions/022-login-and-manage-bundles.md,
 * "Sixth round"). It behaves as Mantine's with `type="native"`.
 */
export const TableScrollContainer = forwardRef<
  HTMLDivElement,
  ComponentPropsWithoutRef<'div'> & { minWidth?: number | string; maxHeight?: number | string; type?: string; scrollAreaProps?: unknown }
>(function TableScrollContainer({ minWidth, maxHeight, type: _type, scrollAreaProps: _scrollAreaProps, style, children, ...others }, ref) {
  return (
    <div ref={ref} style={{ overflow: 'auto', maxHeight, ...style }} {...others}>
      <div style={{ minWidth }}>{children}</div>
    </div>
  );
});
