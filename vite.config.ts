import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { routePreload } from './scripts/routePreload';
import { NOT_FOUND_PAGE, SHELL_ROUTES } from './src/routeTable';

const FRONT_DOOR_CORE = new RegExp(
  [
    'node_modules[\\\\/](react|react-dom|scheduler|react-is|@emotion[\\\\/][^\\\\/]+|stylis|hoist-non-react-statics|clsx|@mui[\\\\/](system|utils|styled-engine|private-theming))[\\\\/]',
    'node_modules[\\\\/]@mui[\\\\/]material[\\\\/](styles|utils|internal|transitions|Box|Typography|Button|ButtonBase|Alert|CircularProgress|Paper|SvgIcon|IconButton|Link|Divider|useLazyRipple|ButtonGroup|CssBaseline|GlobalStyles|zero-styled|DefaultPropsProvider|useMediaQuery)[\\\\/]',
  ].join('|'),
);

const ROOT = fileURLToPath(new URL('.', import.meta.url));
const ENTRY = `${ROOT}src/main.tsx`;
/** The app the entry loads in a step of its own (src/main.tsx): what it reaches, every page needs. */
const APP = `${ROOT}src/App.tsx`;
/** The reach of a module the entry imports dynamically, as one of its steps. */
const ENTRY_STEP = 'entry step';
const FRONT_DOOR_PAGES = [...SHELL_ROUTES.filter((r) => r.page && (r.meta.prelogin || r.meta.welcome)).map((r) => r.page), NOT_FOUND_PAGE].map((page) => `${ROOT}${page}.tsx`);
/** The shell's pass-through pages (/loading, /redirect). */
const PASS_THROUGH_PAGES = SHELL_ROUTES.filter((r) => r.page && !(r.meta.prelogin || r.meta.welcome)).map((r) => `${ROOT}${r.page}.tsx`);
const FRONT_DOOR = new Set(FRONT_DOOR_PAGES);

interface ModuleGraph {
  getModuleInfo(id: string): { importers: readonly string[]; dynamicImporters: readonly string[] } | null;
}

/**
 * Which of the entry, the app, the front-door and the pass-through pages reach a module through static
 * imports, walking its importers up (memoised per build: the module graph is complete when chunks are made).
 */
function frontDoorReach(graph: ModuleGraph) {
  const roots = new Set([ENTRY, APP, ...FRONT_DOOR_PAGES, ...PASS_THROUGH_PAGES]);
  const memo = new Map<string, Set<string>>();
  const reach = (id: string): Set<string> => {
    const known = memo.get(id);
    if (known) return known;
    const found = new Set<string>();
    memo.set(id, found); // a cycle adds nothing more
    if (roots.has(id)) found.add(id);
    const info = graph.getModuleInfo(id);
    for (const importer of info?.importers ?? []) for (const root of reach(importer)) found.add(root);
    // The entry's steps are dynamic imports (src/main.tsx); every page loads them all the same.
    if (info?.dynamicImporters.includes(ENTRY)) found.add(ENTRY_STEP);
    return found;
  };
  return reach;
}

let reachOf: { graph: ModuleGraph; reach: (id: string) => Set<string> } | null = null;
/** The roots that reach a module, from this build's graph. */
function rootsOf(id: string, graph: ModuleGraph): Set<string> {
  if (reachOf?.graph !== graph) reachOf = { graph, reach: frontDoorReach(graph) };
  return reachOf.reach(id);
}

/**
 * The shell chunk holds the shared libraries the entry uses or most front-door pages use. A
 * module only a few pages use (the checkbox, the divider, the toggle buttons' roving focus) or none
 * (the portal's transitions) stays out of it: in the shell, every page would pay for it.
 */
function inShell(id: string, graph: ModuleGraph): boolean {
  const roots = rootsOf(id, graph);
  const frontDoorPages = [...roots].filter((root) => FRONT_DOOR.has(root)).length;
  return roots.has(ENTRY) || roots.has(ENTRY_STEP) || roots.has(APP) || frontDoorPages * 2 >= FRONT_DOOR_PAGES.length;
}

/**
 * The front door's shared chunks, cut as if no signed-in screen existed: a module front-door pages
 * reach goes into the chunk of the front-door pages that reach it (the signed-in apps load those
 * chunks as they are). The main app's screens are lazy chunks of their own, and each that also
 * uses such a module would otherwise make Rolldown cut the front door's chunks into smaller ones,
 * which compress worse (and the entry's app chunk lists every one of them for its pages' preloads).
 */
function frontDoorChunk(id: string, graph: ModuleGraph): string | null {
  if (FRONT_DOOR.has(id) || inShell(id, graph) || inApp(id, graph)) return null;
  const roots = rootsOf(id, graph);
  // What a pass-through page (/loading on the way in) loads stays where Rolldown puts it.
  if (PASS_THROUGH_PAGES.some((page) => roots.has(page))) return null;
  const pages = [...roots].filter((root) => FRONT_DOOR.has(root));
  if (!pages.length) return null;
  const names = pages.map((page) => page.replace(/^.*[\\/]/, '').replace(/(Page)?\.tsx$/, '')).sort();
  return names.length > 2 ? `front-${createHash('sha256').update(names.join()).digest('hex').slice(0, 6)}` : names.join('-');
}

/** The app's step: what the app reaches, and the entry does not (that is in the entry's chunk). */
function inApp(id: string, graph: ModuleGraph): boolean {
  const roots = rootsOf(id, graph);
  return roots.has(APP) && !roots.has(ENTRY);
}

/**
 * What every front-door form adds: the outlined input's parts. Not FormHelperText: only the fields
 * with a hint or a select use it (ReadOnlyField, NativeSelectField, PlainTextField), and the sign-in
 * and sign-up forms have none.
 */
const FRONT_DOOR_FORMS = /node_modules[\\/]@mui[\\/]material[\\/](InputBase|OutlinedInput|InputLabel|FormControl|FormLabel|InputAdornment|TextareaAutosize)[\\/]/;

const UNIT_TESTS = ['src', 'analytics', 'dataProvider', 'portal', 'admin', 'i18n', 'server', 'tests/unit'];

/**
 * Unit test files that need modules of their own: those replacing a module with `vi.mock` (shared,
 * the replacement would reach the next file), and the check that zod's setting applies before zod loads.
 */
const UNIT_OWN_MODULES = UNIT_TESTS.flatMap((dir) =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.test\.tsx?$/.test(file))
    .map((file) => `${dir}/${file.replaceAll('\\', '/')}`)
    .filter((file) => file === 'src/zodJitless.test.ts' || readFileSync(file, 'utf8').includes('vi.mock(')),
);

/** What both unit projects share. */
const UNIT_SETTINGS = {
  // Vitest's default leaves one of two cores idle; the files load their modules in parallel.
  maxWorkers: 2,
  environment: 'node',
  // A file's first render loads its modules cold; a busy CI machine needs more than 5 s for it.
  testTimeout: 15000,
  setupFiles: ['tests/unit/setup.ts'],
};

/** API test files that start real server processes (each a node with its own database). */
const PROCESS_TESTS = ['tests/api/{process,shutdown,orderCrash,serversReliability,backupCrash,adminJobs,analytics.ingestCrash}.test.ts'];

export default defineConfig(({ command }) => ({
  plugins: [react(), routePreload()],
  resolve: {
    alias: [
      // Everywhere (build, dev, tests): the few hooks we use of react-i18next, over the tiny
      // translator or i18next (src/reactI18next.ts says why).
      { find: /^react-i18next$/, replacement: fileURLToPath(new URL('./src/reactI18next.ts', import.meta.url)) },
      // Production build only: tests and the dev server keep the real module (src/routerForAdmin.ts says why).
      ...(command === 'build'
        ? [
            { find: /^react-router-dom$/, replacement: fileURLToPath(new URL('./src/routerForAdmin.ts', import.meta.url)) },
            // React Router's own production build: its package exports only the development one,
            // with its warnings (remix-run/react-router#14102), into every production bundle.
            { find: /^react-router$/, replacement: fileURLToPath(new URL('./node_modules/react-router/dist/production/index.mjs', import.meta.url)) },
          ]
        : []),
    ],
  },
  build: {
    outDir: 'dist',
    manifest: true,
    sourcemap: process.env.SOURCEMAP === '1',
    chunkSizeWarningLimit: 1200,
    // No modulepreload polyfill in the entry chunk of every first visit: browsers without
    // modulepreload (Safari before 17) still load every module, only without the head start.
    modulePreload: {
      polyfill: false,
      // The signed-in apps' chunks are not listed in the front door's app chunk (a list its every
      // visitor would download): index.html preloads the addressed app with its screen
      // (scripts/routePreload.ts), and a later navigation loads them as the browser finds them.
      resolveDependencies: (file, deps, { hostType }) => (hostType === 'js' && /^assets\/(MainApp|AnalyticsApp)-/.test(file) ? [] : deps),
    },
    rolldownOptions: {
      output: {
        // Every front-door page loads these; one chunk compresses better than the dozens Rolldown
        // would cut from them (issue 17's per-route budget counts each chunk's gzip on its own).
        codeSplitting: {
          groups: [
            { name: (id, ctx) => (inShell(id, ctx) ? 'shell' : null), debugName: 'shell', test: FRONT_DOOR_CORE, priority: 2 },
            // Vite's preload helper stays a chunk of its own: in the app's chunk, the entry would
            // import that chunk statically and evaluate the app in its own task.
            { name: 'preload-helper', test: /vite[\\/]preload-helper/, priority: 3 },
            { name: 'forms', test: FRONT_DOOR_FORMS, priority: 1 },
            // The small modules the front door's forms share, in one chunk rather than a file each;
            // only these modules (not what they import), and none that starts work as it runs.
            { name: 'form-parts', test: /(portal[\\/]auth[\\/](AuthHeading|signUpFailure)|src[\\/]ui[\\/]form[\\/](lazyResolver|messages))\.tsx?$/, includeDependenciesRecursively: false, priority: 1 },
            // The app's step (src/main.tsx) in one chunk with the small modules only it and a few
            // pages share: one compresses better than the several Rolldown would cut.
            { name: (id, ctx) => (inApp(id, ctx) ? 'App' : null), debugName: 'App', test: /[\\/](src|dataProvider|i18n|portal)[\\/]/, priority: 0 },
            { name: (id, ctx) => frontDoorChunk(id, ctx), debugName: 'front door', includeDependenciesRecursively: false, priority: 0 },
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
          ...UNIT_SETTINGS,
          include: UNIT_TESTS.map((dir) => `${dir}/**/*.test.{ts,tsx}`),
          exclude: UNIT_OWN_MODULES,
          // Files share a worker's loaded modules (React, react-admin, MUI): loading them afresh for
          // each file took more than half the run. A file's render is cleaned up after each test.
          isolate: false,
        },
      },
      {
        extends: true,
        test: { name: 'unit-own-modules', ...UNIT_SETTINGS, include: UNIT_OWN_MODULES },
      },
      {
        // Files side by side, each on its own database. On PGlite two (one left a core idle); on
        // PostgreSQL three, as its own processes do part of the work (docs/performance.md).
        extends: true,
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          exclude: PROCESS_TESTS,
          environment: 'node',
          globalSetup: ['tests/support/databaseTemplate.ts'],
          // Files share a worker's loaded modules: each builds its own app on its own database, and
          // loading the server's modules again for every file took a third of the run.
          isolate: false,
          maxWorkers: process.env.DATABASE_URL?.startsWith('postgres') ? 3 : 2,
          testTimeout: 30000,
          hookTimeout: 60000,
        },
      },
      {
        // Tests that start and kill whole server processes run alone, after the rest.
        extends: true,
        test: {
          name: 'api-process',
          include: PROCESS_TESTS,
          environment: 'node',
          globalSetup: ['tests/support/databaseTemplate.ts'],
          isolate: false,
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
          testTimeout: 30000,
          hookTimeout: 60000,
        },
      },
    ],
  },
}));
