import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../server/db/client';
import { seedCatalogue } from '../../server/db/seed';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated and seeded PostgreSQL database each test file's database is copied from ('' on PGlite). */
    databaseTemplate: string;
  }
}

/**
 * Global setup of the API projects on PostgreSQL: migrates and seeds one template database for the run,
 * so each file's `CREATE DATABASE … TEMPLATE` copies it instead of running every migration again.
 */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl?.startsWith('postgres')) {
    project.provide('databaseTemplate', '');
    return undefined;
  }
  const name = `beacon_template_${randomBytes(6).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), dataDir: fileURLToPath(new URL('../../no-data-dir', import.meta.url)) });
  try {
    await database.migrate();
    await seedCatalogue(database.db);
  } finally {
    await database.close();
  }
  project.provide('databaseTemplate', name);
  return () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}
