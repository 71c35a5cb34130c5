import { fileURLToPath } from 'node:url';
import { defineConfig, type AliasOptions } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './precompress';

const src = (path: string) => fileURLToPath(new URL(`./src/${path}`, import.meta.url));

/**
 * React's API on Preact (docs/decisions/006-web-bundle-budget.md): the login route's JavaScript
 * budget (120 KB gzipped) cannot be met with react-dom's 62 KB. `WEB_RUNTIME=react` builds with
 * React itself, to tell a Preact compatibility problem from a bug of ours.
 */
const onPreact = process.env.WEB_RUNTIME !== 'react';
const preactAliases: AliasOptions = [
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/jsx-dev-runtime' },
  { find: /^react$/, replacement: src('lib/react-on-preact.js') },
];

export default defineConfig({
  // Fast Refresh patches React's renderer; on Preact an edit reloads the page instead
  plugins: [react(onPreact ? { refreshExclude: /./ } : {}), precompress()],
  resolve: {
    alias: [
      { find: '@partner-portal/contracts', replacement: fileURLToPath(new URL('../../packages/contracts/src/index.ts', import.meta.url)) },
      { find: /^@\//, replacement: src('') },
      ...(onPreact ? preactAliases : []),
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
      treeshake: { moduleSideEffects: (id: string) => !id.includes('/packages/contracts/src/') },
    },
  },
  server: {
    port: 5173,
    proxy: { '/api': 'http://localhost:3000', '/connect': 'http://localhost:3000', '/.well-known': 'http://localhost:3000', '/health': 'http://localhost:3000' },
  },
});
