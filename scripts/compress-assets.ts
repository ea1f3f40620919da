/**
 * Writes a brotli (.br) and a gzip (.gz) copy beside every text file of the web build, so the
 * server sends compressed bytes without compressing at request time (@fastify/static
 * `preCompressed`). Both at maximum quality: this runs once per build, not per request.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const TEXT = /\.(js|mjs|css|html|svg|json|txt|xml|webmanifest|map)$/;
// Below this a compressed copy saves less than its headers cost.
const MIN_BYTES = 1024;

function* files(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else yield path;
  }
}

export function compressAssets(root = 'dist'): { files: number; raw: number; br: number; gz: number } {
  const totals = { files: 0, raw: 0, br: 0, gz: 0 };
  for (const path of files(root)) {
    if (!TEXT.test(path) || statSync(path).size < MIN_BYTES) continue;
    const raw = readFileSync(path);
    const br = brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } });
    const gz = gzipSync(raw, { level: 9 });
    writeFileSync(`${path}.br`, br);
    writeFileSync(`${path}.gz`, gz);
    totals.files += 1;
    totals.raw += raw.length;
    totals.br += br.length;
    totals.gz += gz.length;
  }
  return totals;
}

const t = compressAssets(process.argv[2]);
const kb = (n: number) => `${(n / 1024).toFixed(0)} kB`;
console.log(`compressed ${t.files} assets: ${kb(t.raw)} raw, ${kb(t.gz)} gzip, ${kb(t.br)} brotli`);
