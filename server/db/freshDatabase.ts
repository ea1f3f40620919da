import { rmSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { createQueueSchema } from './queueSchema';
import * as schema from './schema';
import { seedCatalogue } from './seed';

/**
 * A fresh embedded database, made once by the build: PGlite's initdb plus the migrations take
 * 3 to 4 s, seeding the catalogue and pg-boss's schema almost one more, copying their result a
 * fraction of that, so the first `npm start` on a new machine copies it into DATA_DIR instead
 * (db/freshCopy.ts). The start still migrates and seeds (each a no-op when the copy is current).
 * Nothing of one install is in it: no secret key (a file of its own in DATA_DIR), no account, no
 * queue settings.
 */

/** Migrates and seeds an open PGlite database and adds pg-boss's schema: what a fresh database holds. */
async function prepare(client: PGlite, migrationsFolder: string): Promise<void> {
  const db = drizzle(client, { schema });
  await migrate(db, { migrationsFolder });
  await seedCatalogue(db);
  await createQueueSchema(client);
}

/** Writes a closed, migrated and seeded PGlite data directory to `dir` (replacing one there). */
export async function writeFreshDatabase(dir: string, migrationsFolder: string): Promise<void> {
  rmSync(dir, { recursive: true, force: true });
  const client = new PGlite(dir, { extensions: { pg_trgm } });
  try {
    await prepare(client, migrationsFolder);
  } finally {
    await client.close();
  }
}

/**
 * The same fresh database as an archive an in-memory PGlite opens from (`openDatabase`'s `snapshot`):
 * the tests make one per worker and open each file's database from it, a fifth of initdb's time.
 */
export async function freshDatabaseDump(migrationsFolder: string): Promise<Blob> {
  const client = new PGlite({ extensions: { pg_trgm } });
  try {
    await prepare(client, migrationsFolder);
    return await client.dumpDataDir('none');
  } finally {
    await client.close();
  }
}
