import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The docs stay a map: ARCHITECTURE.md fits in a sitting, and the code says what it does and why,
 * never which issue asked for it (history lives in git).
 */
const ARCHITECTURE_MAX_BYTES = 15_000;
const SOURCE_FOLDERS = ['server', 'src', 'portal', 'admin', 'analytics', 'dataProvider', 'scripts', 'bench', 'tests', 'i18n', 'edge'];
const SOURCE_FILE = /\.(ts|tsx|js|mjs|cjs|css|html)$/;
// Landed migrations are never edited (CONTRIBUTING.md, "Add a migration").
const SKIPPED = new Set(['node_modules', 'dist', 'dist-server', 'migrations']);
const ISSUE_REFERENCE = /\bissues?\s+#?\d+/i;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return SKIPPED.has(name) ? [] : sourceFiles(path);
    return SOURCE_FILE.test(name) ? [path] : [];
  });
}

/** Each line citing an issue number, as `path:line: text`. */
function issueReferences(files: string[]): string[] {
  return files.flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, i) => (ISSUE_REFERENCE.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
  );
}

describe('docs stay a map', () => {
  it(`ARCHITECTURE.md is at most ${ARCHITECTURE_MAX_BYTES} bytes`, () => {
    expect(statSync('ARCHITECTURE.md').size).toBeLessThanOrEqual(ARCHITECTURE_MAX_BYTES);
  });

  it('the issue matcher finds a cited issue and leaves ordinary words alone', () => {
    // Spelled in pieces, so that this file does not cite one itself.
    expect(ISSUE_REFERENCE.test(`// Loaded after the page (${'issue'} 17).`)).toBe(true);
    expect(ISSUE_REFERENCE.test(`/** ${'Issue'} #28: a token pattern. */`)).toBe(true);
    expect(ISSUE_REFERENCE.test(`// See ${'issues'} 11 and 28.`)).toBe(true);
    expect(ISSUE_REFERENCE.test("// Each zod issue's message key, translated.")).toBe(false);
    expect(ISSUE_REFERENCE.test("await ctx.step('issue_certificate', run);")).toBe(false);
  });

  it('no source file cites an issue number: comments say what and why', () => {
    const folders = SOURCE_FOLDERS.filter((folder) => statSync(folder, { throwIfNoEntry: false })?.isDirectory());
    expect(issueReferences(folders.flatMap(sourceFiles))).toEqual([]);
  });
});
