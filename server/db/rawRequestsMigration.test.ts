import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, describe, expect, it } from 'vitest';

const migrations = fileURLToPath(new URL('./migrations', import.meta.url));
const before = mkdtempSync(join(tmpdir(), 'beacon-migrations-'));
afterAll(() => rmSync(before, { recursive: true, force: true }));

/** The migrations folder as it was before raw events became one row per request. */
function migrationsBeforeRawRequests(): string {
  cpSync(migrations, before, { recursive: true });
  const journalPath = join(before, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] };
  const cut = journal.entries.findIndex((e) => e.tag === '0027_raw_requests');
  writeFileSync(journalPath, JSON.stringify({ ...journal, entries: journal.entries.slice(0, cut) }));
  return before;
}

describe('the migration to raw events kept per request', () => {
  it('moves every raw event kept so far, grouped by the batch that wrote them, in time order', async () => {
    const pglite = new PGlite({ extensions: { pg_trgm } });
    const db = drizzle(pglite);
    await migrate(db, { migrationsFolder: migrationsBeforeRawRequests() });
    const app = '00000000-0000-4000-8000-0000000000a1';
    // The app's owners do not matter here: their foreign keys are not checked while the rows go in.
    await pglite.exec(`set session_replication_role = replica;
      insert into analytics_apps (id, tenant_id, name, key) values ('${app}', '00000000-0000-4000-8000-0000000000b1', 'App', 'key');
      insert into analytics_raw_events (app_id, device_id, key, count, sum, dur, segmentation, occurred_at, received_at) values
        ('${app}', 'd1', 'later', 1, null, null, null, '2026-11-02T10:00:00.250Z', '2026-11-03T00:00:00Z'),
        ('${app}', 'd1', 'earlier', 2, 1.5, 3, '{"plan":"pro"}', '2026-11-01T09:00:00Z', '2026-11-03T00:00:00Z'),
        ('${app}', 'd1', 'next batch', 1, null, null, null, '2026-11-04T00:00:00Z', '2026-11-04T00:00:01Z'),
        ('${app}', 'd2', 'other device', 1, null, null, null, '2026-11-02T00:00:00Z', '2026-11-03T00:00:00Z');
      set session_replication_role = origin;`);

    await migrate(db, { migrationsFolder: migrations });

    const rows = await pglite.query<{ device_id: string; events: unknown[]; first_at: Date; last_at: Date }>('select device_id, events, first_at, last_at from analytics_raw_requests order by device_id, first_at');
    expect(rows.rows).toEqual([
      {
        device_id: 'd1',
        events: [
          { key: 'earlier', count: 2, sum: 1.5, dur: 3, segmentation: { plan: 'pro' }, timestamp: '2026-11-01T09:00:00.000Z' },
          { key: 'later', count: 1, sum: null, dur: null, segmentation: null, timestamp: '2026-11-02T10:00:00.250Z' },
        ],
        first_at: new Date('2026-11-01T09:00:00Z'),
        last_at: new Date('2026-11-02T10:00:00.250Z'),
      },
      { device_id: 'd1', events: [{ key: 'next batch', count: 1, sum: null, dur: null, segmentation: null, timestamp: '2026-11-04T00:00:00.000Z' }], first_at: new Date('2026-11-04T00:00:00Z'), last_at: new Date('2026-11-04T00:00:00Z') },
      { device_id: 'd2', events: [{ key: 'other device', count: 1, sum: null, dur: null, segmentation: null, timestamp: '2026-11-02T00:00:00.000Z' }], first_at: new Date('2026-11-02T00:00:00Z'), last_at: new Date('2026-11-02T00:00:00Z') },
    ]);
    expect((await pglite.query("select to_regclass('analytics_raw_events') as t")).rows).toEqual([{ t: null }]);
    await pglite.close();
  }, 60_000);
});
