/**
 * Prints the gzip size of the JS each route loads first, and fails the build when a front-door
 * route (welcome or prelogin) or a signed-in one goes over its budget. Reads Vite's manifest and
 * the route table.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { MAIN_APP_PAGES } from '../src/mainAppPages';
import { ANALYTICS_APP_MODULE, ANALYTICS_PATTERN, MAIN_APP_MODULE, NOT_FOUND_PAGE, SHELL_ROUTES } from '../src/routeTable';

// The front door's budget: no front-door route loads more than 170 kB of JS first (it was 228,
// then 204, then 185). The heaviest is sign-up, 169.7 kB; what it is made of (gzip, measured on
// /account/create with source maps): react-dom and react 65, MUI 47 (37 of them in the shell chunk
// every page loads, the rest the form fields' parts), react-router 14, react-hook-form 13, our
// code 12, emotion 10, Rolldown's and Vite's runtime 2 to 5, the front door's strings (i18n/en.ts)
// 3. What keeps it there is in ARCHITECTURE.md, "Front door". Never raise it: make room instead.
const BUDGET_KB = 170;
// The signed-in app: the shell, react-admin with the main layout and the admin area's tabs, and the
// addressed screen (each screen, recharts and the date pickers load with their own route). It was
// 457 kB with every screen in the app's chunk.
const SIGNED_IN_BUDGET_KB = 300;
const dist = 'dist';

interface Chunk {
  file: string;
  imports?: string[];
  dynamicImports?: string[];
  isEntry?: boolean;
}
const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8')) as Record<string, Chunk>;

function closure(key: string, seen = new Set<string>()): Set<string> {
  const chunk = manifest[key];
  if (!chunk || seen.has(chunk.file)) return seen;
  seen.add(chunk.file);
  for (const dep of chunk.imports ?? []) closure(dep, seen);
  return seen;
}

const gzipCache = new Map<string, number>();
function gzipSize(file: string): number {
  let size = gzipCache.get(file);
  if (size === undefined) {
    size = gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
    gzipCache.set(file, size);
  }
  return size;
}

const entry = Object.keys(manifest).find((k) => manifest[k]?.isEntry);
if (!entry) throw new Error('no entry chunk in the manifest');

const rows: { route: string; kb: number; budget: number | null }[] = [];
const measure = (route: string, modules: string[], budget: number | null) => {
  // The entry's own dynamic imports are its steps (src/main.tsx): every first load makes them.
  const files = closure(entry);
  for (const step of manifest[entry]?.dynamicImports ?? []) closure(step, files);
  for (const module of modules) {
    if (!manifest[`${module}.tsx`]) throw new Error(`${module}.tsx is no chunk of its own in the manifest`);
    closure(`${module}.tsx`, files);
  }
  const bytes = [...files].filter((f) => f.endsWith('.js')).reduce((sum, f) => sum + gzipSize(f), 0);
  rows.push({ route, kb: bytes / 1024, budget });
};

for (const route of SHELL_ROUTES) {
  if (route.redirect) continue;
  measure(route.path, route.page ? [route.page] : [], route.meta.prelogin || route.meta.welcome ? BUDGET_KB : null);
}
measure('(not found)', [NOT_FOUND_PAGE], BUDGET_KB);
measure('(main layout)', [MAIN_APP_MODULE], SIGNED_IN_BUDGET_KB);
// Each screen on top, as its route loads it: figures to watch, not yet within the budget.
for (const { path, page } of MAIN_APP_PAGES) measure(path, [MAIN_APP_MODULE, page], null);
measure(ANALYTICS_PATTERN, [ANALYTICS_APP_MODULE], null);

console.log(`\nFirst-load JS per route (gzip), budget ${BUDGET_KB} kB for front-door routes, ${SIGNED_IN_BUDGET_KB} kB for signed-in ones:`);
for (const row of rows) {
  const flag = row.budget === null ? '' : row.kb > row.budget ? '  OVER BUDGET' : '  ok';
  console.log(`  ${row.route.padEnd(28)} ${row.kb.toFixed(1).padStart(7)} kB${flag}`);
}
const over = rows.filter((r) => r.budget !== null && r.kb > r.budget);
if (over.length) {
  console.error(`\n${over.length} route(s) over budget: ${over.map((r) => r.route).join(', ')}.`);
  process.exit(1);
}
