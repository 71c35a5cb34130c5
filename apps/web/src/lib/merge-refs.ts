import type { Ref, RefCallback } from 'react';
import { useMergedRef } from '@mantine/hooks';

/**
 * `useMergeRefs` of `@floating-ui/react`, the only name Mantine's ScrollArea imports from it, as
 * Mantine's own `useMergedRef` (the same dependencies, and React 19's ref cleanups). The build gives
 * the ScrollArea this module instead (`mantineImportsNarrowed` in vite.config.ts), so that every
 * `Table`'s scroll container does not bring Floating UI with it
 * (docs/decisions/022-login-and-manage-bundles.md, "Fourth round").
 */
export function useMergeRefs<T>(refs: ReadonlyArray<Ref<T> | undefined>): RefCallback<T> {
  return useMergedRef(...refs);
}
