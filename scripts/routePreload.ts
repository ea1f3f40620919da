/**
 * Vite plugin: a tiny script that, from the address's hash, asks for the addressed page's chunks
 * (`modulepreload`) while the shell's own entry chunk is still downloading, so that the page is
 * not one more round trip behind the shell. It also preloads the entry's steps from
 * index.html itself. An async module script rather than inline
 * code: the CSP allows scripts from 'self' only.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OutputChunk } from 'rolldown';
import type { Plugin } from 'vite';
import { MAIN_APP_PAGES } from '../src/mainAppPages';
import { ANALYTICS_APP_MODULE, ANALYTICS_PATTERN, MAIN_APP_MODULE, MAIN_APP_PATTERNS, SHELL_ROUTES } from '../src/routeTable';

/** A route path as a pattern the script matches the address's path with: `:param` one segment, a trailing `/*` anything below. */
const pathPattern = (path: string) => `^${path.replace(/:[^/]+/g, '[^/]+').replace(/\/\*$/, '(/.*)?')}$`;

export function routePreload(): Plugin {
  let outDir = 'dist';
  let scriptFile = '';
  let stepFiles: string[] = [];
  return {
    name: 'beacon-route-preload',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((o): o is OutputChunk => o.type === 'chunk');
      const byFile = new Map(chunks.map((c) => [c.fileName, c]));
      const closure = (chunk: OutputChunk | undefined, seen = new Set<string>()) => {
        if (!chunk || seen.has(chunk.fileName)) return seen;
        seen.add(chunk.fileName);
        for (const file of chunk.imports) closure(byFile.get(file), seen);
        return seen;
      };
      const entry = chunks.find((c) => c.isEntry);
      const shell = closure(entry);
      // The entry's steps (src/main.tsx imports them one after another, to evaluate each in a task
      // of its own): preloaded from index.html, so that none waits for the step before to download.
      const steps = new Set<string>();
      for (const file of entry?.dynamicImports ?? []) closure(byFile.get(file), steps);
      stepFiles = [...steps].filter((f) => !shell.has(f));
      for (const f of stepFiles) shell.add(f);
      const table: [string, string[]][] = [];
      for (const route of SHELL_ROUTES) {
        const { redirect } = route;
        const target = redirect ? SHELL_ROUTES.find((r) => r.path === redirect || r.path === `${redirect.split('/').slice(0, 2).join('/')}/*`) : route;
        const page = target?.page;
        const chunk = page ? chunks.find((c) => c.facadeModuleId?.endsWith(`/${page}.tsx`)) : undefined;
        if (!chunk) continue;
        table.push([pathPattern(route.path), [...closure(chunk)].filter((f) => !shell.has(f))]);
      }
      // Signed-in addresses: the react-admin app with the addressed screen (both lazily loaded, so
      // without this one after the other), else the app alone; a server's dashboard its own app.
      // With /loading's page: a first visit passes there while the session resumes (SPEC §2 guard).
      const chunkOf = (module: string) => chunks.find((c) => c.facadeModuleId?.endsWith(`/${module}.tsx`));
      const loadingPage = SHELL_ROUTES.find((r) => r.path === '/loading')?.page;
      const passThrough = loadingPage ? closure(chunkOf(loadingPage)) : new Set<string>();
      const mainApp = closure(chunkOf(MAIN_APP_MODULE), new Set(passThrough));
      const beyondShell = (files: Set<string>) => [...files].filter((f) => !shell.has(f));
      table.push([pathPattern(ANALYTICS_PATTERN), beyondShell(closure(chunkOf(ANALYTICS_APP_MODULE), new Set(passThrough)))]);
      for (const { path, page } of MAIN_APP_PAGES) {
        for (const form of [path, `/c/:cid/p/:pid${path}`]) table.push([pathPattern(form), beyondShell(closure(chunkOf(page), new Set(mainApp)))]);
      }
      for (const pattern of MAIN_APP_PATTERNS) table.push([pathPattern(pattern), beyondShell(mainApp)]);
      // Each file named once, the table listing indexes: the signed-in rows share most of theirs.
      const files = [...new Set(table.flatMap(([, f]) => f))];
      const source =
        `const f=${JSON.stringify(files)};` +
        `const t=${JSON.stringify(table.map(([pattern, f]) => [pattern, f.map((file) => files.indexOf(file))]))};` +
        `const p=location.hash.replace(/^#/,'').split('?')[0]||'/';` +
        `const r=t.find(([k])=>new RegExp(k).test(p));` +
        `if(r)for(const i of r[1]){const l=document.createElement('link');l.rel='modulepreload';l.crossOrigin='';l.href='/'+f[i];document.head.append(l)}\n`;
      scriptFile = `assets/route-preload-${createHash('sha256').update(source).digest('hex').slice(0, 8)}.js`;
      this.emitFile({ type: 'asset', fileName: scriptFile, source });
    },
    writeBundle() {
      const indexFile = join(outDir, 'index.html');
      const html = readFileSync(indexFile, 'utf8');
      const steps = stepFiles.map((f) => `\n    <link rel="modulepreload" crossorigin href="/${f}">`).join('');
      const withSteps = html.replace(/(<script type="module" crossorigin src="[^"]+"><\/script>)/, `$1${steps}`);
      if (steps && withSteps === html) throw new Error('route preload: no entry script tag in index.html');
      writeFileSync(indexFile, withSteps.replace('<meta charset="UTF-8" />', `<meta charset="UTF-8" />\n    <script type="module" async src="/${scriptFile}"></script>`));
    },
  };
}
