/**
 * Prerendered first screens: renders each front-door page as React's first render in
 * the browser makes it (src/prerender.tsx, through Vite in Node, production mode) and writes a
 * blocking inline script that puts the addressed page's markup, with its styles, into #root before
 * the app's scripts run. Text then paints on the first frame instead of after the scripts have
 * downloaded and run; React's first render replaces it with the same page (src/lazyPage.tsx).
 * The markup is inert until then, so nothing can be typed into a form that is about to go.
 *
 * Only where the first screen is known in advance: no query in the address (an error notice
 * changes it) other than the parameters the route table says leave it as it is (the invitation's
 * token), the product name it was rendered with; both with and without the Google button.
 * On the invited page the script also sends the token's check and fills in the invitation's
 * details when it answers (portal/auth/invitationFirstScreen.ts).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createServer } from 'vite';
import type * as FirstScreen from '../src/prerender';
import { SHELL_ROUTES } from '../src/routeTable';
import { pickerSource } from './firstScreenScript';

type FirstScreenModule = typeof FirstScreen;

/**
 * The front door: prelogin pages at a fixed address, and the addresses the route table's redirects
 * lead to (where the wizard starts); each redirect's own address shows its target's screen. No
 * react-router here: loaded before production mode is set, it would bring React's development build.
 */
export function prerenderedPaths(): { pages: string[]; aliases: Record<string, string>; queries: Record<string, string[]> } {
  const prelogin = SHELL_ROUTES.filter((r) => r.meta.prelogin && r.page);
  const pages = prelogin.filter((r) => !r.path.endsWith('/*')).map((r) => r.path);
  const redirects = SHELL_ROUTES.flatMap((r) => (r.redirect ? [[r.path, r.redirect] as const] : []));
  for (const [, target] of redirects) if (!pages.includes(target) && prelogin.some((r) => r.path.endsWith('/*') && target.startsWith(r.path.slice(0, -1)))) pages.push(target);
  const queries = Object.fromEntries(prelogin.flatMap((r) => (r.meta.firstScreenQuery && pages.includes(r.path) ? [[r.path, r.meta.firstScreenQuery] as const] : [])));
  return { pages, aliases: Object.fromEntries(redirects.filter(([, target]) => pages.includes(target))), queries };
}

export async function prerender(outDir = 'dist'): Promise<{ pages: number; bytes: number }> {
  // React, MUI and emotion render as in the production bundle (no dev-only labels in class names).
  process.env.NODE_ENV = 'production';
  const vite = await createServer({ mode: 'production', appType: 'custom', logLevel: 'error', server: { middlewareMode: true, hmr: false, ws: false } });
  try {
    const entry = (await vite.ssrLoadModule('/src/prerender.tsx')) as FirstScreenModule;
    const { pages, ...paths } = prerenderedPaths();
    const table: Record<string, string> = {};
    for (const path of pages) {
      // React's preloads for the page's images go: the hidden welcome panel's logos would compete
      // with the scripts on a phone, and the images load from their own tags anyway.
      const render = async (googleSignIn: boolean) => (await entry.renderFirstScreen(path, { googleSignIn })).replace(/<link rel="preload" as="image"[^>]*>/g, '');
      const plain = await render(false);
      const google = await render(true);
      if (!plain) throw new Error(`prerender: ${path} rendered nothing`);
      table[path] = plain;
      if (google !== plain) table[`g${path}`] = google;
    }
    const source = pickerSource(table, paths, entry.PRERENDERED_PRODUCT_NAME);
    if (/<\/script|<!--/i.test(source)) throw new Error('prerender: the first-screen script would end its own tag');
    const indexFile = join(outDir, 'index.html');
    // Once: a second run over the same build replaces the first one's script.
    const html = readFileSync(indexFile, 'utf8').replace(/\n\s*<script data-first-screen>[\s\S]*?<\/script>/, '');
    const root = '<div id="root"></div>';
    if (!html.includes(root)) throw new Error('prerender: no empty #root in index.html');
    // Inline and blocking, right after #root: the markup is in place before the first paint, with
    // no request of its own to wait for (on a phone that request shared the line with the app's
    // scripts). The server allows it by its hash (server/spa.ts).
    writeFileSync(indexFile, html.replace(root, `${root}\n    <script data-first-screen>${source}</script>`));
    return { pages: pages.length, bytes: source.length };
  } finally {
    await vite.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const started = Date.now();
  const { pages, bytes } = await prerender(process.argv[2]);
  console.log(`prerendered ${pages} first screens into index.html's first-screen script (${(bytes / 1024).toFixed(1)} kB) in ${Date.now() - started} ms`);
}
