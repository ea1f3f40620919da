import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { messages } from '../../i18n';
import { ERROR_CODES, ERRORS } from '../../src/domain/errors';

/** Every TypeScript source file under a folder (tests excluded: they may build any error). */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'migrations' ? [] : sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

const serverFiles = sources('server').map((path) => ({ path, text: readFileSync(path, 'utf8') }));

/** A dotted i18n key looked up in one language's message tree. */
function lookup(tree: unknown, key: string): unknown {
  return key.split('.').reduce<unknown>((node, part) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined), tree);
}

describe('the error table', () => {
  it.each(Object.keys(messages))('every code has a message in %s', (language) => {
    const tree = messages[language as keyof typeof messages];
    const missing = ERROR_CODES.filter((code) => typeof lookup(tree, ERRORS[code].message) !== 'string');
    expect(missing).toEqual([]);
  });

  it('gives every code an HTTP error status', () => {
    for (const code of ERROR_CODES) expect(ERRORS[code].status, code).toBeGreaterThanOrEqual(400);
  });

  it('holds every code thrown anywhere in server/', () => {
    const thrown = new Set<string>();
    for (const { text } of serverFiles) {
      for (const match of text.matchAll(/AppError(?:\.\w+)?\(\s*'(\w+)'/g)) thrown.add(match[1] ?? '');
    }
    expect(thrown.size).toBeGreaterThan(20);
    expect([...thrown].filter((code) => !(code in ERRORS))).toEqual([]);
  });

  it('leaves the status to the table: no `new AppError(` call names one', () => {
    const withStatus = serverFiles.flatMap(({ path, text }) => [...text.matchAll(/new AppError\([^)]*?,\s*\d{3}\b/g)].map((m) => `${path}: ${m[0]}`));
    expect(withStatus).toEqual([]);
  });
});
