import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

/**
 * The first start's copy of the build's fresh database (db/freshDatabase.ts) into DATA_DIR. Kept
 * apart from the database client, with nothing but node:fs, so the server's entry can start it
 * before the rest of the server loads: the copy is some forty megabytes of disk writes (a third of
 * a second to a second on a slow disk) and runs on libuv's threads while the modules load.
 */

/** PGlite takes a data directory holding this file for an existing database (and never runs initdb on it). */
export const MARKER = 'PG_VERSION';

/** The build's fresh database, beside the compiled server (none when run from the sources). */
export const FRESH_DATABASE = fileURLToPath(new URL('./fresh-database', import.meta.url));

/** The data directory PGlite opens for this configuration; null for PostgreSQL and for the in-memory database. */
export function embeddedDataDir(databaseUrl: string | undefined, dataDir: string): string | null {
  if (databaseUrl?.startsWith('postgres') || databaseUrl === 'memory://') return null;
  return dataDir;
}

const copying = new Map<string, Promise<boolean>>();

// Synchronous copies in a thread of their own: fs.promises.cp would fill libuv's four threads with
// a thousand file copies, and the module loader's reads would queue behind them.
const COPY_THREAD = `
  const { cpSync, copyFileSync, mkdirSync } = require('node:fs');
  const { join } = require('node:path');
  const { template, dataDir, marker } = require('node:worker_threads').workerData;
  mkdirSync(dataDir, { recursive: true });
  cpSync(template, dataDir, { recursive: true, force: true, filter: (source) => source !== join(template, marker) });
  copyFileSync(join(template, marker), join(dataDir, marker));
`;

async function copy(template: string, dataDir: string): Promise<boolean> {
  if (existsSync(join(dataDir, MARKER)) || !existsSync(join(template, MARKER))) return false;
  await new Promise<void>((resolve, reject) => {
    const thread = new Worker(COPY_THREAD, { eval: true, workerData: { template, dataDir, marker: MARKER } });
    thread.once('error', reject);
    thread.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`copying the fresh database ended with code ${code}`))));
  });
  return true;
}

/**
 * Fills `dataDir` from `template` when it holds no database yet; answers whether it did. The marker
 * goes last, so a copy cut off half-way is not taken for a database: the next start copies again.
 * A call while a copy into the same directory is under way joins it.
 */
export function copyFreshDatabase(template: string, dataDir: string): Promise<boolean> {
  const pending = copying.get(dataDir);
  if (pending) return pending;
  const started = copy(template, dataDir).finally(() => copying.delete(dataDir));
  copying.set(dataDir, started);
  return started;
}
