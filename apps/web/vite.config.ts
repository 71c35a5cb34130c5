import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './precompress';

const src = (path: string) => fileURLToPath(new URL(`./src/${path}`, import.meta.url));

/**
 * Mantine's ScrollArea imports only `useMergeRefs` from `@floating-ui/react`, a single module:
 * through it every `Table` (its scroll container) brought the whole of Floating UI that the
 * menus, tooltips and selects use (about 15 KB gzipped) onto the manage page. The ScrollArea gets
 * that hook from src/lib/merge-refs.ts instead (Mantine's own `useMergedRef`); Floating UI loads
 * with the controls that float (docs/decisions/022-login-and-manage-bundles.md, "Third round").
 */
function mergeRefsForScrollArea(): Plugin {
  const copy = src('lib/merge-refs.ts');
  return {
    name: 'merge-refs-for-scroll-area',
    enforce: 'pre',
    resolveId(source, importer) {
      if (
        source === '@floating-ui/react' &&
        importer &&
        /[\\/]@mantine[\\/]core[\\/]esm[\\/]components[\\/]ScrollArea[\\/]/.test(importer)
      ) {
        return copy;
      }
      return null;
    },
  };
}

export default defineConfig({
  // React with Fast Refresh in `npm run dev` (docs/decisions/007-login-on-a-slow-connection.md)
  plugins: [react(), precompress(), mergeRefsForScrollArea()],
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
});
