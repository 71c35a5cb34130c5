import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './precompress';

const src = (path: string) => fileURLToPath(new URL(`./src/${path}`, import.meta.url));

/**
 * Two Mantine components import a whole module for one small thing, which brought it onto every
 * page that shows them (docs/decisions/022-login-and-manage-bundles.md, "Fourth round" and "Sixth round"):
 * - the ScrollArea (every `Table`'s scroll container) imports only `useMergeRefs` from
 *   `@floating-ui/react`, a single module: with it came the whole of Floating UI that the menus,
 *   tooltips and selects use (about 15 KB gzipped). It gets that hook from src/lib/merge-refs.ts
 *   (Mantine's own `useMergedRef`); Floating UI loads with the controls that float.
 * - the Table attaches its scroll container, which is Mantine's ScrollArea (about 5 KB gzipped), to
 *   every table although the portal's tables never use it: src/lib/table-scroll-container.tsx is a
 *   plain scrolling box in its place ("Sixth round").
 */
function mantineImportsNarrowed(): Plugin {
  const narrowed: { importer: RegExp; source: string; module: string }[] = [
    {
      importer: /[\\/]@mantine[\\/]core[\\/]esm[\\/]components[\\/]ScrollArea[\\/]/,
      source: '@floating-ui/react',
      module: src('lib/merge-refs.ts'),
    },
    {
      importer: /[\\/]@mantine[\\/]core[\\/]esm[\\/]components[\\/]Table[\\/]Table\.mjs$/,
      source: './TableScrollContainer.mjs',
      module: src('lib/table-scroll-container.tsx'),
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

/**
 * The modules every signed-in page loads, which go into one chunk ("signed-in"): Mantine's core
 * (Box, the theme, the styles API), its hooks, the components that nearly every page shows, and
 * TanStack Query. The login route uses none of them.
 */
const everydayComponents = [
  'ActionIcon',
  'Alert',
  'Anchor',
  'Badge',
  'Button',
  'Center',
  'Checkbox',
  'CloseButton',
  'Code',
  'Combobox[\\\\/]ComboboxChevron',
  'Group',
  'Input',
  'InputBase',
  'List',
  'Loader',
  'NativeSelect',
  'Paper',
  'SimpleGrid',
  'Stack',
  'Text',
  'Title',
  'UnstyledButton',
  'VisuallyHidden',
];
const signedInBase = new RegExp(
  `@mantine[\\\\/](hooks|core[\\\\/]esm[\\\\/](core|components[\\\\/](${everydayComponents.join('|')}))[\\\\/])|@tanstack[\\\\/]`,
);

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
      // round). Then what every signed-in page uses in one more: Mantine's core, its hooks and
      // everyday components, and TanStack Query, instead of some forty chunks of 0.1–5 KB; the
      // manage page 227.7 → 214.5 KB, the portal page 177.9 → 171.4, the profile 248.7 → 236.7
      // (sixth round). Only for the browser's build: the pre-rendering build keeps its own layout.
      output: isSsrBuild
        ? undefined
        : {
            codeSplitting: {
              groups: [
                { name: 'initial', tags: ['$initial'] },
                { name: 'signed-in', test: signedInBase },
              ],
            },
          },
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
