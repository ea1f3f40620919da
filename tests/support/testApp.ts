import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import type { LoggerOption } from '../../server/logging';
import { loadConfig, type Config } from '../../server/config';
import { scratchDatabase } from './serverProcess';
import { openDatabase } from '../../server/db/client';
import { freshDatabaseDump } from '../../server/db/freshDatabase';
import { fileURLToPath } from 'node:url';

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  close(): Promise<void>;
}

/**
 * Builds the app on a fresh database: in-memory PGlite by default, or, when DATABASE_URL is set,
 * a new PostgreSQL database created for this test file and dropped afterwards.
 */
export async function createTestApp(env: Record<string, string> = {}, options: { logger?: LoggerOption } = {}): Promise<TestApp> {
  const scratch = await scratchDatabase('beacon_test');
  const databaseUrl = scratch.url || 'memory://';
  // No task worker unless a test asks for one (WORKER_ENABLED=true): background provisioning would
  // change the tables that other tests compare before and after a refused request.
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: databaseUrl, STATIC_DIR: './no-such-build', WORKER_ENABLED: 'false', ...env });
  const database = databaseUrl === 'memory://' ? await openDatabase({ databaseUrl, dataDir: config.DATA_DIR, snapshot: await freshSnapshot() }) : undefined;
  const app = await buildApp(config, { logger: options.logger ?? false, database });
  return {
    app,
    config,
    async close() {
      await app.close();
      await database?.close();
      await scratch.drop();
    },
  };
}

let snapshot: Promise<Blob> | undefined;
/** One fresh embedded database per test worker, which every file's in-memory database opens from. */
export function freshSnapshot(): Promise<Blob> {
  snapshot ??= freshDatabaseDump(fileURLToPath(new URL('../../server/db/migrations', import.meta.url)));
  return snapshot;
}

/** Attempt counters: a refused request is meant to count against its limit, so they are left out. */
const ATTEMPT_TABLES = new Set(['rate_counters', 'limit_events']);

/** Row counts of every table but the attempt counters: a refused request must leave them all as they were. */
export async function tableCounts(app: FastifyInstance): Promise<Record<string, number>> {
  const tables = await app.database.rows<{ table_name: string }>(
    "select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name",
  );
  const counts: Record<string, number> = {};
  for (const { table_name } of tables.filter((t) => !ATTEMPT_TABLES.has(t.table_name))) {
    const res = await app.database.rows<{ n: number }>(`select count(*)::int as n from "${table_name}"`);
    counts[table_name] = res[0]?.n ?? -1;
  }
  return counts;
}
