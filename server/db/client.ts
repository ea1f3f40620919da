import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql, type SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** The embedded instance (PGlite) or the URL (PostgreSQL): the task queue opens its own access from it. */
  pglite?: PGlite;
  url?: string;
  migrate(): Promise<void>;
  /** Raw SQL for the few places the query builder does not fit; returns the rows. */
  rows<T extends Record<string, unknown>>(query: SQL | string): Promise<T[]>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));
// Any fixed number: serialises migrations when several processes start against one PostgreSQL.
const MIGRATION_LOCK = 727_274_001;

/**
 * Opens the database the configuration names: node-postgres for a postgres:// URL, otherwise
 * embedded PGlite in `dataDir` (or in memory for `memory://`). Same schema and migrations on both.
 */
export async function openDatabase(options: { databaseUrl?: string; dataDir: string; onIdleError?: (err: Error) => void }): Promise<Database> {
  const { databaseUrl, dataDir } = options;
  if (databaseUrl && databaseUrl.startsWith('postgres')) {
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
    // An idle client can lose its connection (server restart, failover); without a listener that
    // error would crash the process. The pool replaces the client on next use.
    pool.on('error', (err) => options.onIdleError?.(err));
    const db = drizzlePg(pool, { schema });
    return {
      db,
      kind: 'postgres',
      url: databaseUrl,
      async migrate() {
        const client = await pool.connect();
        try {
          await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
          await migratePg(drizzlePg(client, { schema }), { migrationsFolder });
        } finally {
          await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
          client.release();
        }
      },
      async rows<T extends Record<string, unknown>>(query: SQL | string) {
        const res = await db.execute<T>(typeof query === 'string' ? sql.raw(query) : query);
        return res.rows as T[];
      },
      async ping() {
        await db.execute(sql`select 1`);
      },
      async close() {
        await pool.end();
      },
    };
  }
  let client: PGlite;
  if (databaseUrl === 'memory://') {
    client = new PGlite();
  } else {
    mkdirSync(dataDir, { recursive: true });
    client = new PGlite(dataDir);
  }
  const db = drizzlePglite(client, { schema });
  return {
    db,
    kind: 'pglite',
    pglite: client,
    async migrate() {
      await migratePglite(db, { migrationsFolder });
    },
    async rows<T extends Record<string, unknown>>(query: SQL | string) {
      const res = await db.execute<T>(typeof query === 'string' ? sql.raw(query) : query);
      return res.rows as T[];
    },
    async ping() {
      await db.execute(sql`select 1`);
    },
    async close() {
      await client.close();
    },
  };
}
