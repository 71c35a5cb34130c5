import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './precompress';

const src = (path: string) => fileURLToPath(new URL(`./src/${path}`, import.meta.url));

export default defineConfig({
  // React with Fast Refresh in `npm run dev` (docs/decisions/007-login-on-a-slow-connection.md)
  plugins: [react(), precompress()],
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
