import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/client';
import { scratchDatabase } from '../support/serverProcess';

// Uses DATABASE_URL, or the local PostgreSQL of the development set-up (CONTRIBUTING.md).
const POSTGRES = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

describe('closing the PostgreSQL pool', () => {
  it('returns once every connection is closed: the database dropped at once loses none of ours', async () => {
    const scratch = await scratchDatabase('beacon_close', POSTGRES);
    const dataDir = mkdtempSync(join(tmpdir(), 'beacon-close-'));
    const lost: Error[] = [];
    const database = await openDatabase({ databaseUrl: scratch.url, dataDir, onBackgroundError: (err) => lost.push(err) });
    try {
      // Several statements at once: the pool opens a connection for each.
      await Promise.all(Array.from({ length: 8 }, () => database.rows('select pg_sleep(0.02)')));
      // Dropping WITH (FORCE) right after, from a connection made before, terminates any
      // connection still open: a client of ours still connected would hear it and report it lost.
      const admin = new pg.Client({ connectionString: POSTGRES });
      await admin.connect();
      await database.close();
      await admin.query(`DROP DATABASE ${new URL(scratch.url).pathname.slice(1)} WITH (FORCE)`);
      await admin.end();
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(lost.map((err) => err.message)).toEqual([]);
    } finally {
      await scratch.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
