/**
 * Prints the gzip size of the JS each route loads first, and fails the build when a front-door
 * route (welcome or prelogin) goes over budget. Reads Vite's manifest and the route table.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { MAIN_APP_MODULE, NOT_FOUND_PAGE, SHELL_ROUTES } from '../src/routeTable';

// The goal is 170 kB (issue 17); the budget sits just above today's heaviest front-door route
// (invited, 184.6 kB) and is to come down from here, never up again. It was 228 kB, then 204 until
// i18next left the front door (the tiny translator, i18n/tiny.ts) and the password rules panel
// loaded with its check. What the 170 kB goal still needs (gzip, measured): react-router 13 kB and
// the en.ts strings 8 kB in the entry chunk, react-hook-form 13 kB on every form, react-dom 60 kB
// and MUI's theme and emotion 25 kB on every page.
const BUDGET_KB = 185;
const dist = 'dist';

interface Chunk {
  file: string;
  imports?: string[];
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

const rows: { route: string; kb: number; budget: boolean }[] = [];
const measure = (route: string, module: string | null, budget: boolean) => {
  const files = closure(entry);
  if (module) closure(`${module}.tsx`, files);
  const bytes = [...files].filter((f) => f.endsWith('.js')).reduce((sum, f) => sum + gzipSize(f), 0);
  rows.push({ route, kb: bytes / 1024, budget });
};

for (const route of SHELL_ROUTES) {
  if (route.redirect) continue;
  measure(route.path, route.page ?? null, Boolean(route.meta.prelogin || route.meta.welcome));
}
measure('(not found)', NOT_FOUND_PAGE, true);
measure('(main layout and admin)', MAIN_APP_MODULE, false);

console.log(`\nFirst-load JS per route (gzip), budget ${BUDGET_KB} kB for front-door routes:`);
for (const row of rows) {
  const flag = row.budget ? (row.kb > BUDGET_KB ? '  OVER BUDGET' : '  ok') : '';
  console.log(`  ${row.route.padEnd(28)} ${row.kb.toFixed(1).padStart(7)} kB${flag}`);
}
const over = rows.filter((r) => r.budget && r.kb > BUDGET_KB);
if (over.length) {
  console.error(`\n${over.length} route(s) over the ${BUDGET_KB} kB budget.`);
  process.exit(1);
}
