import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** Builds the widget harness page that tests/e2e/widgets.spec.ts serves and drives. */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  plugins: [react()],
  // As in the product's build: react-i18next's hooks over our translator (src/reactI18next.ts).
  resolve: { alias: [{ find: /^react-i18next$/, replacement: fileURLToPath(new URL('../../src/reactI18next.ts', import.meta.url)) }] },
  logLevel: 'warn',
  build: {
    outDir: fileURLToPath(new URL('../../test-results/widgets-dist', import.meta.url)),
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 4000,
  },
});
