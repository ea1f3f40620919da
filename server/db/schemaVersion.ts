import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Beside the compiled client too: scripts/build-server.ts copies the migrations next to it. */
const journal = fileURLToPath(new URL('./migrations/meta/_journal.json', import.meta.url));
let version: number | null = null;

/** The database schema's version: how many migrations this build has. A backup records it. */
export function schemaVersion(): number {
  version ??= (JSON.parse(readFileSync(journal, 'utf8')) as { entries: unknown[] }).entries.length;
  return version;
}
