/**
 * Compiles the server to ES modules, dist-server/index.js (and the worker, dist-server/worker.js), so production runs plain `node`
 * instead of compiling TypeScript at every start. Packages stay external (node_modules is there in
 * production); the project's own modules (server, src/domain, i18n) are bundled in. The SQL
 * migrations are copied beside it, where the compiled database client looks for them, and the
 * product's build adds a fresh migrated database there for the first start (server/db/freshDatabase.ts).
 */
import { cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { writeFreshDatabase } from '../server/db/freshDatabase';

const PRODUCT = { index: 'server/index.ts', worker: 'server/worker/main.ts' };

/** Compiles `entries` (the server and the worker by default) into `outdir`; answers the first one's file. */
export async function buildServer(outdir = 'dist-server', entries: Record<string, string> = PRODUCT): Promise<string> {
  rmSync(outdir, { recursive: true, force: true });
  await build({
    // The embedded database's thread loads its own file (server/db/pgliteThread.ts), beside any entry.
    entryPoints: { ...entries, pgliteHost: 'server/db/pgliteHost.ts' },
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    // The entry imports the rest of the server dynamically (server/index.ts): a chunk of its own.
    splitting: true,
    sourcemap: true,
    logLevel: 'warning',
  });
  cpSync('server/db/migrations', join(outdir, 'migrations'), { recursive: true });
  return join(outdir, `${Object.keys(entries)[0] ?? 'index'}.js`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const started = Date.now();
  const outdir = process.argv[2] ?? 'dist-server';
  const file = await buildServer(outdir);
  console.log(`server compiled to ${file} in ${Date.now() - started} ms`);
  const migrated = Date.now();
  await writeFreshDatabase(join(outdir, 'fresh-database'), join(outdir, 'migrations'));
  console.log(`fresh database for the first start in ${Date.now() - migrated} ms`);
}
