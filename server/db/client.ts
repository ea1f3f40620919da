import { mkdirSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import { sql, type SQL } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { trackCatalogue } from './catalogueCache';
import { ChangeFeed, isAnalyticsWrite, isCatalogueWrite, isServerWrite } from './changes';
import { copyFreshDatabase, embeddedDataDir, FRESH_DATABASE } from './freshCopy';
import { PgliteThread } from './pgliteThread';
import * as schema from './schema';

export type { Db, Schema } from './types';

export interface SnapshotReader {
  /** The text of the query's one column, a line per row, as COPY sends it. */
  lines(query: string): Readable;
  /** The snapshot's instant (ISO 8601). */
  takenAt: string;
  /** Ends the snapshot and gives the connection back. */
  close(): Promise<void>;
}
import type { Db } from './types';

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** The embedded database's thread (PGlite) or the URL (PostgreSQL): the task queue opens its own access from it. */
  pglite?: PgliteThread;
  url?: string;
  /** Moves on every write that may change a session, its user or their companies (see changes.ts). */
  changes: ChangeFeed;
  /** Moves on every write that may change what ingestion keeps about an analytics app (see changes.ts). */
  analyticsChanges: ChangeFeed;
  /** Moves on every write to the catalogue: plans, prices, plan groups, configurables (see changes.ts). */
  catalogueChanges: ChangeFeed;
  /** Moves on every write that may change how many servers a company lists (see changes.ts). */
  serverChanges: ChangeFeed;
  migrate(): Promise<void>;
  /** Raw SQL for the few places the query builder does not fit; returns the rows. */
  rows<T extends Record<string, unknown>>(query: SQL | string): Promise<T[]>;
  /**
   * PostgreSQL only: a connection in one REPEATABLE READ, read-only snapshot whose queries' text
   * results stream out by COPY, a line each, with no row or string made per line in between
   * (backups: server/backups/archive.ts). Null on PGlite.
   */
  snapshot: (() => Promise<SnapshotReader>) | null;
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Transactions report their end to the feeds: readers racing one must not keep what they read. */
function watchTransactions<D extends { transaction: (...args: never[]) => Promise<unknown> }>(db: D, feeds: ChangeFeed[]): D {
  const transaction = db.transaction.bind(db) as unknown as (...args: unknown[]) => Promise<unknown>;
  db.transaction = ((...args: unknown[]) => feeds.reduce<() => Promise<unknown>>((run, feed) => () => feed.around(run), () => transaction(...args))()) as unknown as D['transaction'];
  return db;
}

/** The feeds of one database: sessions, analytics apps, the catalogue and servers, and drizzle's logger telling each of every statement. */
function feeds() {
  const changes = new ChangeFeed();
  const analyticsChanges = new ChangeFeed(isAnalyticsWrite);
  const catalogueChanges = new ChangeFeed(isCatalogueWrite);
  const serverChanges = new ChangeFeed(isServerWrite);
  const all = [changes, analyticsChanges, catalogueChanges, serverChanges];
  const logger = { logQuery: (query: string, params: unknown[]) => all.forEach((feed) => feed.logger.logQuery(query, params)) };
  return { changes, analyticsChanges, catalogueChanges, serverChanges, all, logger };
}

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));
// Any fixed number: serialises migrations when several processes start against one PostgreSQL.
const MIGRATION_LOCK = 727_274_001;

/**
 * Opens the database the configuration names: node-postgres for a postgres:// URL, otherwise
 * embedded PGlite in `dataDir` (or in memory for `memory://`). Same schema and migrations on both.
 */
export async function openDatabase(options: {
  databaseUrl?: string;
  dataDir: string;
  /** An error no request sees: a pooled idle connection lost (PostgreSQL), the maintenance failing (PGlite). */
  onBackgroundError?: (err: Error) => void;
  /** For `memory://`: starts from this dump of a database (db/freshDatabase.ts) instead of an empty one. */
  snapshot?: Blob;
}): Promise<Database> {
  const { databaseUrl } = options;
  const dataDir = embeddedDataDir(databaseUrl, options.dataDir);
  if (databaseUrl && databaseUrl.startsWith('postgres')) {
    // Loaded only here: the embedded database's start does without them.
    const [{ drizzle: drizzlePg }, { migrate: migratePg }] = await Promise.all([import('drizzle-orm/node-postgres'), import('drizzle-orm/node-postgres/migrator')]);
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
    // An idle client can lose its connection (server restart, failover); without a listener that
    // error would crash the process. The pool replaces the client on next use.
    pool.on('error', (err) => options.onBackgroundError?.(err));
    // Connections until their socket has closed: pool.end() resolves once it has asked each to
    // close, and one removed before (idle timeout, error) may still be closing. close() waits for them.
    const open = new Set<pg.PoolClient>();
    let allClosed: (() => void) | undefined;
    pool.on('connect', (client) => open.add(client));
    pool.on('remove', (client) => {
      open.delete(client);
      if (open.size === 0) allClosed?.();
    });
    const { changes, analyticsChanges, catalogueChanges, serverChanges, all, logger } = feeds();
    // Outside a transaction a statement runs on any pooled connection, alongside readers on others:
    // the feed moves again once it is done. (Inside one, the transaction's end does that.)
    const query = pool.query.bind(pool) as (config: unknown, values?: unknown) => Promise<unknown>;
    (pool as { query: unknown }).query = (config: unknown, values?: unknown) => {
      const result = query(config, values);
      const text = typeof config === 'string' ? config : (config as { text?: unknown } | null)?.text;
      for (const feed of all) if (typeof text === 'string' && feed.watches(text)) void result.then(() => feed.wrote(), () => feed.wrote());
      return result;
    };
    const db = trackCatalogue(watchTransactions(drizzlePg(pool, { schema, logger }), all), catalogueChanges);
    return {
      db,
      kind: 'postgres',
      url: databaseUrl,
      changes,
      analyticsChanges,
      catalogueChanges,
      serverChanges,
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
      async snapshot() {
        const { to } = await import('pg-copy-streams');
        const client = await pool.connect();
        try {
          await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
          const { rows } = await client.query<{ now: string }>(`select to_json(now())#>>'{}' as now`);
          return {
            takenAt: rows[0]?.now ?? new Date().toISOString(),
            // CSV with a delimiter and a quote that JSON text never holds raw: each value goes out as it is.
            lines: (query: string) => client.query(to(`COPY (${query}) TO STDOUT WITH (FORMAT csv, DELIMITER E'\\x01', QUOTE E'\\x02')`)),
            async close() {
              await client.query('ROLLBACK').catch(() => undefined);
              client.release();
            },
          };
        } catch (err) {
          client.release();
          throw err;
        }
      },
      async ping() {
        await db.execute(sql`select 1`);
      },
      async close() {
        await pool.end();
        if (open.size > 0) await new Promise<void>((resolve) => (allClosed = resolve));
      },
    };
  }
  if (dataDir !== null) {
    mkdirSync(dataDir, { recursive: true });
    await copyFreshDatabase(FRESH_DATABASE, dataDir);
  }
  const client = await PgliteThread.start({ dataDir, snapshot: options.snapshot, onMaintenanceError: options.onBackgroundError });
  // PGlite runs one statement at a time, in order, so a reader never overtakes a write it follows.
  const { changes, analyticsChanges, catalogueChanges, serverChanges, all, logger } = feeds();
  // drizzle's PGlite driver calls only query and transaction, which the thread answers as PGlite does.
  const db = trackCatalogue(watchTransactions(drizzlePglite(client as unknown as PGlite, { schema, logger }), all), catalogueChanges);
  return {
    db,
    kind: 'pglite',
    pglite: client,
    changes,
    analyticsChanges,
    catalogueChanges,
    serverChanges,
    async migrate() {
      await migratePglite(db, { migrationsFolder });
    },
    async rows<T extends Record<string, unknown>>(query: SQL | string) {
      const res = await db.execute<T>(typeof query === 'string' ? sql.raw(query) : query);
      return res.rows as T[];
    },
    snapshot: null,
    async ping() {
      await db.execute(sql`select 1`);
    },
    async close() {
      await client.close();
    },
  };
}
