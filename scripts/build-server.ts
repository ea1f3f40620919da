/**
 * Compiles the server to one ES module, dist-server/index.js, so production runs plain `node`
 * instead of compiling TypeScript at every start. Packages stay external (node_modules is there in
 * production); the project's own modules (server, src/domain, i18n) are bundled in. The SQL
 * migrations are copied beside it, where the compiled database client looks for them.
 */
import { cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

export async function buildServer(outdir = 'dist-server', entry: { name: string; file: string } = { name: 'index', file: 'server/index.ts' }): Promise<string> {
  rmSync(outdir, { recursive: true, force: true });
  await build({
    entryPoints: { [entry.name]: entry.file },
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
  });
  cpSync('server/db/migrations', join(outdir, 'migrations'), { recursive: true });
  return join(outdir, `${entry.name}.js`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const started = Date.now();
  const file = await buildServer(process.argv[2]);
  console.log(`server compiled to ${file} in ${Date.now() - started} ms`);
}
