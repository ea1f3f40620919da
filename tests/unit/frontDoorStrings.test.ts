import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { en as everyString } from '../../i18n';
import { NOT_FOUND_PAGE, SHELL_ROUTES } from '../../src/routeTable';

/**
 * The front door loads only its own strings (`i18n/en.ts`) and the bundles its screens add
 * (ARCHITECTURE.md, "Front door"); the signed-in apps' strings arrive with `src/fullI18n.ts`. A key
 * a front-door module names but cannot find would show as the key itself, so: walk the modules the
 * shell and its pages import (dynamic imports too, short of the modules that bring the app's
 * strings) and look up every key they name in the strings they have.
 */
const ROOT = resolve(__dirname, '../..');
const STARTS = ['src/main.tsx', ...SHELL_ROUTES.flatMap((route) => (route.page ? [`${route.page}.tsx`] : [])), `${NOT_FOUND_PAGE}.tsx`];
/** Modules whose imports bring the signed-in apps' strings: what they import may use them. */
const BRINGS_APP_STRINGS = /from '[./]*(src\/)?(fullI18n|appI18n)'|import '[./]*(src\/)?(fullI18n|appI18n)'/;
/** The error table names every `errors.<CODE>`: the server renders those. */
const NOT_SCREENS = new Set(['src/domain/errors.ts']);

type Tree = { readonly [key: string]: unknown };

function resolveImport(from: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null;
  const base = resolve(dirname(join(ROOT, from)), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]) {
    if (existsSync(candidate) && /\.tsx?$/.test(candidate)) return relative(ROOT, candidate);
  }
  return null;
}

function frontDoorModules(): string[] {
  const seen = new Set<string>();
  const queue = [...STARTS];
  while (queue.length) {
    const file = queue.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    const source = readFileSync(join(ROOT, file), 'utf8');
    if (BRINGS_APP_STRINGS.test(source)) continue;
    for (const match of source.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)'([^']+)'/g)) {
      const target = resolveImport(file, match[1] as string);
      if (target && !/\.test\.tsx?$/.test(target)) queue.push(target);
    }
  }
  return [...seen];
}

function has(tree: Tree, path: string, prefixOnly: boolean): boolean {
  const parts = path.split('.');
  const last = parts.pop() as string;
  let node: unknown = tree;
  for (const part of parts) node = node && typeof node === 'object' ? (node as Tree)[part] : undefined;
  if (!node || typeof node !== 'object') return false;
  const keys = Object.keys(node);
  return prefixOnly ? keys.some((key) => key.startsWith(last)) : keys.some((key) => key === last || key === `${last}_one` || key === `${last}_other`);
}

function mergeInto(target: Record<string, unknown>, source: Tree) {
  for (const [key, value] of Object.entries(source)) {
    if (value && typeof value === 'object') mergeInto((target[key] ??= {}) as Record<string, unknown>, value as Tree);
    else target[key] = value;
  }
}

describe('front-door strings', () => {
  const modules = frontDoorModules();
  // What the front door has: en.ts, and each bundle one of its modules adds (wizard, tools, pricing...).
  const available: Record<string, unknown> = {};
  const bundleFiles = modules.filter((file) => file.startsWith('i18n/') && !['i18n/index.ts', 'i18n/tiny.ts', 'i18n/i18next.ts'].includes(file));

  it('walks the shell, every page and the bundles they add', () => {
    expect(modules).toEqual(expect.arrayContaining(['src/App.tsx', 'portal/auth/SignUpPage.tsx', 'portal/auth/InvitedForm.tsx', 'portal/auth/authForms.ts', 'i18n/en.ts', 'i18n/pricing.ts']));
    expect(modules).not.toContain('src/MainApp.tsx');
  });

  it('finds every key a front-door module names among the strings the front door has', async () => {
    for (const file of bundleFiles) {
      const bundle = (await import(join(ROOT, file))) as Record<string, Tree>;
      for (const tree of Object.values(bundle)) mergeInto(available, tree);
    }
    const namespaces = new Set(Object.keys(everyString));
    const missing: string[] = [];
    for (const file of modules) {
      if (file.startsWith('i18n/') || NOT_SCREENS.has(file)) continue;
      const source = readFileSync(join(ROOT, file), 'utf8');
      for (const match of source.matchAll(/['`]([a-zA-Z][\w-]*)\.([\w.${}-]+?)['`]/g)) {
        const [, namespace, rest] = match as unknown as [string, string, string];
        if (!namespaces.has(namespace)) continue;
        const dynamic = rest.indexOf('${');
        const key = `${namespace}.${dynamic >= 0 ? rest.slice(0, dynamic) : rest}`;
        const found = dynamic >= 0 ? has(available, key.replace(/\.$/, '.'), true) : has(available, key, false);
        if (!found) missing.push(`${file}: ${key}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
