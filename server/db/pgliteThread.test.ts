import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgliteThread } from './pgliteThread';

let thread: PgliteThread;
beforeAll(async () => {
  thread = await PgliteThread.start({ dataDir: null });
  await thread.exec('create table items (id int primary key, name text not null)');
}, 60_000);
afterAll(() => thread.close());

describe('the embedded database in its own thread', () => {
  it('keeps the event loop turning while a long statement runs', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    let statementDone = false;
    // A statement of some hundreds of milliseconds: on the server's thread no timer would fire meanwhile.
    const statement = thread.query<{ n: number }>('select count(*)::int as n from generate_series(1, 1000000) g where md5(g::text) like $1', ['0%']).then((res) => {
      statementDone = true;
      return res;
    });
    // Resolves at the fifth tick, or when the statement finished before it.
    const ticksFirst = await new Promise<boolean>((resolve) => {
      const check = setInterval(() => {
        if (ticks >= 5 || statementDone) {
          clearInterval(check);
          resolve(!statementDone);
        }
      }, 1);
    });
    // Counted while it runs (the metrics' queue figure), and no more once answered.
    const queued = thread.query('select 1');
    expect(thread.inFlight).toBe(2);
    const { rows } = await statement;
    await queued;
    clearInterval(timer);
    expect(rows[0]?.n).toBeGreaterThan(0);
    expect(ticksFirst).toBe(true);
    expect(thread.inFlight).toBe(0);
  });

  it('passes a database error back with its code, table and constraint', async () => {
    await thread.query('insert into items values ($1, $2)', [1, 'first']);
    const err = await thread.query('insert into items values ($1, $2)', [1, 'again']).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err).toMatchObject({ code: '23505', table: 'items', constraint: 'items_pkey', severity: 'ERROR' });
    expect((err as Error).stack).toContain('pgliteThread.test.ts');
  });

  it('commits a transaction, and rolls back one whose work throws, keeping the error', async () => {
    await thread.transaction(async (tx) => {
      await tx.query('insert into items values ($1, $2)', [2, 'kept']);
    });
    const failure = new Error('stop here');
    await expect(
      thread.transaction(async (tx) => {
        await tx.query('insert into items values ($1, $2)', [3, 'dropped']);
        throw failure;
      }),
    ).rejects.toBe(failure);
    await thread.transaction(async (tx) => {
      await tx.query('insert into items values ($1, $2)', [4, 'rolled back on request']);
      await tx.rollback();
    });
    const { rows } = await thread.query<{ id: number }>('select id from items order by id');
    expect(rows.map((r) => r.id)).toEqual([1, 2]);
  });

  it('runs a statement from outside only after an open transaction ends', async () => {
    const order: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const transaction = thread.transaction(async (tx) => {
      await tx.query('update items set name = $1 where id = 1', ['in transaction']);
      order.push('transaction wrote');
      await held;
      order.push('transaction ends');
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const outside = thread.query<{ name: string }>('select name from items where id = 1').then((res) => {
      order.push('outside read');
      return res.rows[0]?.name;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    await transaction;
    expect(await outside).toBe('in transaction');
    expect(order).toEqual(['transaction wrote', 'transaction ends', 'outside read']);
  });

  it('answers timestamps as their text when asked, as drizzle asks', async () => {
    const { rows } = await thread.query<unknown[]>("select '2026-11-26 10:00:00+00'::timestamptz as at, 5::int as n", [], { rowMode: 'array', parsers: { 1184: (value: string) => value } });
    expect(rows[0]).toEqual(['2026-11-26 10:00:00+00', 5]);
  });

  it('keeps statements prepared, and prepares one again once its table changed', async () => {
    await thread.exec('create table notes (id int primary key, body text)');
    await thread.query('insert into notes values ($1, $2)', [1, 'first']);
    const read = () => thread.query<Record<string, unknown>>('select * from notes where id = $1', [1]);
    expect((await read()).rows).toEqual([{ id: 1, body: 'first' }]);
    await thread.exec('alter table notes add column pinned boolean not null default false');
    expect((await read()).rows).toEqual([{ id: 1, body: 'first', pinned: false }]);
    // Parameters go through the same serialisers as PGlite's query: dates, arrays, JSON, nulls.
    const { rows } = await thread.query<{ d: string; a: number[]; j: { k: number }; n: null }>('select $1::timestamptz::text as d, $2::int[] as a, $3::jsonb as j, $4::text as n', [new Date('2026-11-26T10:00:00Z'), [1, 2], { k: 3 }, null]);
    expect(rows[0]).toEqual({ d: '2026-11-26 10:00:00+00', a: [1, 2], j: { k: 3 }, n: null });
  });

  it('reads answers as PostgreSQL sent them: several scripts, nulls, row counts, answers longer than one chunk', async () => {
    // 20,000 rows come from PGlite in several chunks: each row must be read whole, in order.
    const { rows } = await thread.query<{ id: number; t: string; n: number | null }>("select g as id, repeat('é✓ж', g % 7) as t, case when g % 3 = 0 then null else g end as n from generate_series(1, 20000) g");
    expect(rows).toHaveLength(20000);
    expect(rows[4]).toEqual({ id: 5, t: 'é✓ж'.repeat(5), n: 5 });
    expect(rows[19999]).toEqual({ id: 20000, t: 'é✓ж'.repeat(20000 % 7), n: 20000 });
    expect(rows.filter((r) => r.n === null)).toHaveLength(6666);
    const updated = await thread.query('update items set name = name where id in ($1, $2)', [1, 2]);
    expect(updated.affectedRows).toBe(2);
    const none = await thread.query<unknown[]>('select id from items where id < $1', [0], { rowMode: 'array' });
    expect(none.rows).toEqual([]);
    expect(none.fields.map((f) => f.name)).toEqual(['id']);
  });

  it('delivers NOTIFY to a listener until it stops listening', async () => {
    const heard: string[] = [];
    const stop = await thread.listen('jobs', (payload) => heard.push(payload));
    await thread.query("select pg_notify('jobs', 'first')");
    await expect.poll(() => heard).toEqual(['first']);
    await stop();
    await thread.query("select pg_notify('jobs', 'second')");
    await thread.query('select 1');
    expect(heard).toEqual(['first']);
  });
});

describe('the embedded database maintenance', () => {
  it('vacuums and analyses the database on its schedule, as autovacuum would', async () => {
    const maintained = await PgliteThread.start({ dataDir: null, maintenanceMs: 200 });
    try {
      await maintained.exec('create table readings (id int primary key, value int)');
      await maintained.query('insert into readings select g, g from generate_series(1, 5000) g');
      await maintained.query('update readings set value = value + 1 where id <= 1000');
      // The planner knows the table's size only once it was analysed.
      const stats = async () => (await maintained.query<{ analysed: boolean; vacuumed: boolean; live: number }>("select last_analyze is not null as analysed, last_vacuum is not null as vacuumed, n_live_tup::int as live from pg_stat_user_tables where relname = 'readings'")).rows[0];
      await expect.poll(stats, { timeout: 20_000 }).toEqual({ analysed: true, vacuumed: true, live: 5000 });
      const { rows } = await maintained.query<{ reltuples: number }>("select reltuples::int as reltuples from pg_class where relname = 'readings'");
      expect(rows[0]?.reltuples).toBe(5000);
    } finally {
      await maintained.close();
    }
  }, 60_000);
});
