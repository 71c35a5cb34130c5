import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './precompress';

const src = (path: string) => fileURLToPath(new URL(`./src/${path}`, import.meta.url));

/**
 * Two Mantine components import a whole module for one small thing, which brought it onto every
 * page that shows them (docs/decisions/022-login-and-manage-bundles.md, "Fourth round"):
 * - the ScrollArea (every `Table`'s scroll container) imports only `useMergeRefs` from
 *   `@floating-ui/react`, a single module: with it came the whole of Floating UI that the menus,
 *   tooltips and selects use (about 15 KB gzipped). It gets that hook from src/lib/merge-refs.ts
 *   (Mantine's own `useMergedRef`); Floating UI loads with the controls that float.
 * - the AppShell's header, footer and aside import `RemoveScroll` from `react-remove-scroll` only
 *   for its class names (about 4 KB gzipped): src/lib/remove-scroll-classes.ts has them; the scroll
 *   lock loads with the Modal.
 */
function mantineImportsNarrowed(): Plugin {
  const narrowed: { importer: RegExp; source: string; module: string }[] = [
    {
      importer: /[\\/]@mantine[\\/]core[\\/]esm[\\/]components[\\/]ScrollArea[\\/]/,
      source: '@floating-ui/react',
      module: src('lib/merge-refs.ts'),
    },
    {
      importer: /[\\/]@mantine[\\/]core[\\/]esm[\\/]components[\\/]AppShell[\\/]/,
      source: 'react-remove-scroll',
      module: src('lib/remove-scroll-classes.ts'),
    },
  ];
  return {
    name: 'mantine-imports-narrowed',
    enforce: 'pre',
    resolveId(source, importer) {
      if (!importer) return null;
      return narrowed.find((n) => n.source === source && n.importer.test(importer))?.module ?? null;
    },
  };
}

export default defineConfig(({ isSsrBuild }) => ({
  // React with Fast Refresh in `npm run dev` (docs/decisions/007-login-on-a-slow-connection.md)
  plugins: [react(), precompress(), mantineImportsNarrowed()],
  resolve: {
    alias: [
      { find: '@partner-portal/contracts', replacement: fileURLToPath(new URL('../../packages/contracts/src/index.ts', import.meta.url)) },
      { find: /^@\//, replacement: src('') },
      { find: /^zod$/, replacement: src('lib/zod.ts') },
    ],
  },
  build: {
    outDir: 'dist',
    sourcemap: false,
    chunkSizeWarningLimit: 600,
    manifest: true,
    rolldownOptions: {
      // Everything the entry loads before any view (the login route's code) in one file, instead of
      // a dozen small chunks that each compress alone: the login route 122.2 → 118.7 KB gzipped,
      // the manage page 248.2 → 241.9 (docs/decisions/022-login-and-manage-bundles.md, fifth
      // round). Only for the browser's build: the pre-rendering build keeps its own layout.
      output: isSsrBuild ? undefined : { codeSplitting: { groups: [{ name: 'initial', tags: ['$initial'] }] } },
      // The contracts package is pure declarations: a page that only needs the language list must
      // not pull every zod schema (and zod) into the login route's bundle.
      treeshake: { moduleSideEffects: (id: string) => !id.includes('/packages/contracts/src/'), manualPureFunctions: ['z'] },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': 'http://localhost:3000',
      '/connect': 'http://localhost:3000',
      '/.well-known': 'http://localhost:3000',
      '/health': 'http://localhost:3000',
    },
  },
}));
