import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { routePreload } from './scripts/routePreload';

const FRONT_DOOR_CORE = new RegExp(
  [
    'node_modules[\\\\/](react|react-dom|scheduler|react-is|@emotion[\\\\/][^\\\\/]+|stylis|hoist-non-react-statics|clsx|@mui[\\\\/](system|utils|styled-engine|private-theming))[\\\\/]',
    'node_modules[\\\\/]@mui[\\\\/]material[\\\\/](styles|utils|internal|transitions|Box|Typography|Button|ButtonBase|Alert|CircularProgress|Paper|SvgIcon|IconButton|Link|Divider|useLazyRipple|ButtonGroup|CssBaseline|GlobalStyles|zero-styled|DefaultPropsProvider|useMediaQuery)[\\\\/]',
  ].join('|'),
);

/** What every front-door form adds: the outlined input's parts and react-hook-form. */
const FRONT_DOOR_FORMS = /node_modules[\\/]@mui[\\/]material[\\/](InputBase|OutlinedInput|InputLabel|FormControl|FormLabel|FormHelperText|InputAdornment|TextareaAutosize)[\\/]/;

export default defineConfig(({ command }) => ({
  plugins: [react(), routePreload()],
  resolve: {
    alias: [
      // Everywhere (build, dev, tests): the few hooks we use of react-i18next, over the tiny
      // translator or i18next (src/reactI18next.ts says why).
      { find: /^react-i18next$/, replacement: fileURLToPath(new URL('./src/reactI18next.ts', import.meta.url)) },
      // Production build only: tests and the dev server keep the real module (src/routerForAdmin.ts says why).
      ...(command === 'build' ? [{ find: /^react-router-dom$/, replacement: fileURLToPath(new URL('./src/routerForAdmin.ts', import.meta.url)) }] : []),
    ],
  },
  build: {
    outDir: 'dist',
    manifest: true,
    sourcemap: process.env.SOURCEMAP === '1',
    chunkSizeWarningLimit: 1200,
    rolldownOptions: {
      output: {
        // Every front-door page loads these; one chunk compresses better than the dozens Rolldown
        // would cut from them (issue 17's per-route budget counts each chunk's gzip on its own).
        codeSplitting: {
          groups: [
            { name: 'shell', test: FRONT_DOOR_CORE, priority: 2 },
            { name: 'forms', test: FRONT_DOOR_FORMS, priority: 1 },
          ],
        },
      },
    },
  },
  server: {
    proxy: { '/api': 'http://localhost:3000' },
  },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['src/**/*.test.{ts,tsx}', 'dataProvider/**/*.test.{ts,tsx}', 'portal/**/*.test.{ts,tsx}', 'admin/**/*.test.{ts,tsx}', 'i18n/**/*.test.ts', 'server/**/*.test.ts', 'tests/unit/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        extends: true,
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30000,
          hookTimeout: 60000,
        },
      },
    ],
  },
}));
