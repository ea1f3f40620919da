import { existsSync, mkdtempSync, readFileSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFreshDatabase } from '../../server/db/freshCopy';
import { writeFreshDatabase } from '../../server/db/freshDatabase';

/** The build's fresh database, and the first start that copies it instead of running initdb. */
const root = mkdtempSync(join(tmpdir(), 'beacon-fresh-'));
const template = join(root, 'template');
const migrations = 'server/db/migrations';
const journal = JSON.parse(readFileSync(join(migrations, 'meta/_journal.json'), 'utf8')) as { entries: unknown[] };

beforeAll(async () => {
  await writeFreshDatabase(template, migrations);
}, 60_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function contents(dataDir: string) {
  const client = new PGlite(dataDir, { extensions: { pg_trgm } });
  try {
    const count = async (query: string) => Number((await client.query<{ n: number }>(query)).rows[0]?.n);
    return {
      migrations: await count('select count(*)::int as n from drizzle.__drizzle_migrations'),
      plans: await count('select count(*)::int as n from plans'),
      users: await count('select count(*)::int as n from users'),
      queueSchema: await count("select count(*)::int as n from information_schema.schemata where schema_name = 'pgboss'"),
    };
  } finally {
    await client.close();
  }
}

describe('the fresh database of the build', () => {
  it('holds every migration, the catalogue and the queue schema, and no account', async () => {
    const dataDir = join(root, 'first');
    expect(await copyFreshDatabase(template, dataDir)).toBe(true);
    const found = await contents(dataDir);
    expect(found.migrations).toBe(journal.entries.length);
    expect(found.plans).toBeGreaterThan(0);
    expect(found.users).toBe(0);
    expect(found.queueSchema).toBe(1);
  }, 30_000);

  it('never replaces a database already there', async () => {
    const dataDir = join(root, 'used');
    await copyFreshDatabase(template, dataDir);
    const client = new PGlite(dataDir, { extensions: { pg_trgm } });
    await client.query("insert into providers (code, name) values ('kept', 'Kept')");
    await client.close();
    expect(await copyFreshDatabase(template, dataDir)).toBe(false);
    const reopened = new PGlite(dataDir, { extensions: { pg_trgm } });
    const kept = await reopened.query("select 1 from providers where code = 'kept'");
    await reopened.close();
    expect(kept.rows).toHaveLength(1);
  }, 30_000);

  it('copies again over a copy cut off before its marker', async () => {
    const dataDir = join(root, 'cut');
    await copyFreshDatabase(template, dataDir);
    unlinkSync(join(dataDir, 'PG_VERSION'));
    rmSync(join(dataDir, 'global'), { recursive: true });
    expect(await copyFreshDatabase(template, dataDir)).toBe(true);
    expect(existsSync(join(dataDir, 'global'))).toBe(true);
    expect((await contents(dataDir)).migrations).toBe(journal.entries.length);
  }, 30_000);

  it('does nothing without a template', async () => {
    const dataDir = join(root, 'none');
    expect(await copyFreshDatabase(join(root, 'missing'), dataDir)).toBe(false);
    expect(existsSync(join(dataDir, 'PG_VERSION'))).toBe(false);
  });

  it('copies once when the entry and the database client ask at the same time', async () => {
    const dataDir = join(root, 'twice');
    const early = copyFreshDatabase(template, dataDir);
    const late = copyFreshDatabase(template, dataDir);
    expect(late).toBe(early);
    expect(await late).toBe(true);
    expect(await copyFreshDatabase(template, dataDir)).toBe(false);
    expect((await contents(dataDir)).plans).toBeGreaterThan(0);
  }, 30_000);
});
